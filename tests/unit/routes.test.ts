import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isKnownPagePath, pageModuleFor, pageModules, paths } from '../../src/shared/routes';

describe('the route table', () => {
  it('knows every page path, a tutor page, and nothing else', () => {
    for (const path of Object.values(paths)) expect(isKnownPagePath(path), path).toBe(true);
    expect(isKnownPagePath('/tutors/abc-123')).toBe(true);
    expect(isKnownPagePath('/contact/')).toBe(true);
    expect(isKnownPagePath('/nope')).toBe(false);
    expect(isKnownPagePath('/tutors/a/b')).toBe(false);
  });

  it('names, for each page, the module the client router loads for it', () => {
    const router = readFileSync('src/client/app/router.tsx', 'utf8');
    const lazy = [...router.matchAll(/import\('\.\.\/(features\/[^']+)'\)/g)].map(
      (match) => `${match[1]}.tsx`,
    );
    expect(new Set(Object.values(pageModules))).toEqual(new Set(lazy));
    for (const module of Object.values(pageModules))
      expect(existsSync(`src/client/${module}`), module).toBe(true);
    expect(pageModuleFor('/')).toBe('features/home/home-page.tsx');
    expect(pageModuleFor('/tutors/abc')).toBe('features/tutors/tutor-page.tsx');
    expect(pageModuleFor('/nope')).toBe('features/not-found/not-found-page.tsx');
  });
});
