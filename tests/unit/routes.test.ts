import { describe, expect, it } from 'vitest';
import {
  isKnownPagePath,
  pageModuleFor,
  pages,
  paths,
  safeRedirect,
  supportChatPath,
} from '../../src/shared/routes';

describe('the page table', () => {
  it('knows every page path, a tutor page, and nothing else', () => {
    for (const path of Object.values(paths)) expect(isKnownPagePath(path), path).toBe(true);
    expect(isKnownPagePath('/tutors/abc-123')).toBe(true);
    expect(isKnownPagePath('/contact/')).toBe(true);
    expect(isKnownPagePath('/nope')).toBe(false);
    expect(isKnownPagePath('/tutors/a/b')).toBe(false);
  });

  it('names the module for each path, and the Not Found page for any other', () => {
    expect(pageModuleFor('/')).toBe('features/home/home-page.tsx');
    expect(pageModuleFor('/tutors/abc')).toBe('features/tutors/tutor-page.tsx');
    expect(pageModuleFor('/messages/3f2b-9c')).toBe('features/messages/messages-page.tsx');
    expect(pageModuleFor('/messages/a/b')).toBe('features/not-found/not-found-page.tsx');
    expect(pageModuleFor('/availability')).toBe('features/availability/availability-page.tsx');
    expect(pageModuleFor('/nope')).toBe('features/not-found/not-found-page.tsx');
    expect(new Set(pages.map((page) => page.path)).size).toBe(pages.length);
  });

  it('sends a visitor back after signing in only to a page of this site meant for signed-in users', () => {
    expect(safeRedirect('/schedule')).toBe('/schedule');
    expect(safeRedirect('/tutors?subject=Python&page=2')).toBe('/tutors?subject=Python&page=2');
    expect(safeRedirect('/profile')).toBe('/profile');
    expect(safeRedirect('/availability')).toBe('/availability');
    // Start Live Chat, signed out: the support conversation opens once signed in.
    expect(safeRedirect(supportChatPath)).toBe('/messages?support=1');
    for (const unsafe of [
      null,
      '',
      'schedule',
      'https://evil.example/schedule',
      '//evil.example/schedule',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\\evil.example',
      '/%2F/evil.example',
      '/login',
      '/signup?x=1',
      '/verify-email',
      '/no-such-page',
    ]) {
      expect(safeRedirect(unsafe), String(unsafe)).toBeUndefined();
    }
  });
});
