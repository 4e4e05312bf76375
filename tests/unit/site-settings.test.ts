/**
 * The site settings' plain parts: the snapshot pages are served from (read once, read back at once
 * after a change here, read again in the background when old, never older over newer, never
 * waited for while the database opens), the catalogue's helpers, business hours as lines, and the
 * checks of a subject's name.
 */
import { describe, expect, it, vi } from 'vitest';
import { cachedFor } from '../../src/server/settings/school-figures';
import { createSettingsSnapshot } from '../../src/server/settings/settings-snapshot';
import type { SiteSettings } from '../../src/server/settings/site-settings';
import { groupCatalog } from '../../src/server/settings/subject-catalog';
import {
  businessHoursLines,
  countFigure,
  phoneLink,
  replyTimeLabel,
} from '../../src/shared/settings/site-settings';
import { siteSettingsChangeSchema, subjectNameSchema } from '../../src/shared/settings/site-settings-schemas';
import {
  catalogSubjects,
  categoryOf,
  DEFAULT_CATALOG,
  offeredSubjects,
  typicalRateLabel,
} from '../../src/shared/tutor-catalog';

const settings = (studentsHelped: string): SiteSettings => ({
  homeFigures: { studentsHelped, expertTutors: null, lessonsCompleted: '50,000+' },
  support: { email: 'support@example.com', phone: '+1 555 0100', hours: 'Mon-Fri 9-6' },
  supportReplyHours: null,
  defaultLanguage: 'en',
  paymentInstructions: 'Pay at the front desk.',
  typicalHourlyRate: null,
  hourlyRateRange: { min: 5, max: 500 },
  subjects: DEFAULT_CATALOG,
});

const defaults = {
  supportEmail: 'support@example.com',
  supportPhone: '+1 555 0100',
  paymentInstructions: 'Pay at the front desk.',
  currency: 'USD',
  language: 'en' as const,
};
const quiet = { warn: () => {} };

/** A read whose answers the test releases one by one, in any order. */
function controlledReads() {
  const pending: ((value: SiteSettings) => void)[] = [];
  const read = vi.fn(() => new Promise<SiteSettings>((resolve) => pending.push(resolve)));
  return { read, answer: (index: number, value: SiteSettings) => pending[index]?.(value) };
}

describe('the settings snapshot', () => {
  it('is not waited for by a page while the database opens, and read once it is open', async () => {
    let open = () => {};
    const ready = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { read, answer } = controlledReads();
    const snapshot = createSettingsSnapshot({ read, ready, defaults, logger: quiet });
    expect(snapshot.forPage()).toBeUndefined();
    expect(read).not.toHaveBeenCalled();
    open();
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(1));
    const forPage = snapshot.forPage();
    expect(forPage).toBeInstanceOf(Promise);
    answer(0, settings('1'));
    expect(await forPage).toEqual(settings('1'));
    expect(snapshot.peek()).toEqual(settings('1'));
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('shows a change made here at once, and an older read that ends later never replaces it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { read, answer } = controlledReads();
      const snapshot = createSettingsSnapshot({
        read,
        ready: Promise.resolve(),
        defaults,
        logger: quiet,
        maxAgeMs: 1000,
      });
      await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(1));
      answer(0, settings('1'));
      await vi.waitFor(() => expect(snapshot.peek()).toEqual(settings('1')));
      expect(read).toHaveBeenCalledTimes(1);
      // Older than a second: the old settings are still served, and read again in the background...
      vi.setSystemTime(Date.now() + 2000);
      expect(snapshot.peek()).toEqual(settings('1'));
      await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(2));
      // ...when a change here is read back, and answers first.
      const reloaded = snapshot.reload();
      await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(3));
      answer(2, settings('3'));
      expect(await reloaded).toEqual(settings('3'));
      answer(1, settings('2'));
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(snapshot.peek()).toEqual(settings('3'));
      expect(read).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('serves the last settings while a new read fails, and tries again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      let fail = false;
      const read = vi.fn(async () => {
        if (fail) throw new Error('database down');
        return settings('1');
      });
      const warn = vi.fn();
      const snapshot = createSettingsSnapshot({
        read,
        ready: Promise.resolve(),
        defaults,
        logger: { warn },
        maxAgeMs: 1000,
      });
      expect(await snapshot.get()).toEqual(settings('1'));
      const reads = read.mock.calls.length;
      fail = true;
      vi.setSystemTime(Date.now() + 2000);
      expect(snapshot.peek()).toEqual(settings('1'));
      await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
      expect(snapshot.peek()).toEqual(settings('1'));
      await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(reads + 2));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the catalogue', () => {
  it('groups subjects by the four categories, offered and retired apart, in their order', () => {
    const catalog = groupCatalog([
      { name: 'Violin', category: 'Arts & Design', retired: false },
      { name: 'Latin', category: 'Languages', retired: true },
      { name: 'Algebra', category: 'Math & Science', retired: false },
      { name: 'Cello', category: 'Arts & Design', retired: false },
    ]);
    expect(catalog).toEqual([
      { category: 'Math & Science', offered: ['Algebra'], retired: [] },
      { category: 'Languages', offered: [], retired: ['Latin'] },
      { category: 'Programming', offered: [], retired: [] },
      { category: 'Arts & Design', offered: ['Violin', 'Cello'], retired: [] },
    ]);
    expect(offeredSubjects(catalog)).toEqual(['Algebra', 'Violin', 'Cello']);
    expect(catalogSubjects(catalog)).toEqual(['Algebra', 'Latin', 'Violin', 'Cello']);
    expect(categoryOf(catalog, 'Latin')).toBe('Languages');
    expect(categoryOf(catalog, 'Astrology')).toBeUndefined();
  });

  it('starts with the seven subjects of each category that tutors always had', () => {
    expect(DEFAULT_CATALOG.map((entry) => entry.offered.length)).toEqual([7, 7, 7, 7]);
    expect(offeredSubjects(DEFAULT_CATALOG)).toContain('Web Development');
  });
});

describe('what an admin writes', () => {
  it('lists business hours one part a line', () => {
    expect(businessHoursLines('Mon-Fri 9-6, Sat 10-4,Sun closed ')).toEqual([
      'Mon-Fri 9-6',
      'Sat 10-4',
      'Sun closed',
    ]);
    expect(phoneLink('+1 (555) 010-0142')).toBe('tel:+15550100142');
  });

  it('keeps a subject’s name as one name however it was typed', () => {
    expect(subjectNameSchema.parse('  Music   History ')).toBe('Music History');
    // "é" as one character and as "e" with a combining accent are the same name.
    expect(subjectNameSchema.parse('Cafe\u0301 Latin')).toBe('Café Latin');
    expect(subjectNameSchema.parse('ü'.repeat(40))).toHaveLength(40);
    expect(subjectNameSchema.safeParse('x'.repeat(41)).success).toBe(false);
    expect(subjectNameSchema.safeParse('Zero\u200bWidth').success).toBe(false);
  });

  it('refuses a change that changes nothing, or names a part it does not know', () => {
    expect(
      siteSettingsChangeSchema.safeParse({ subjects: { add: [], retire: [] } }).error?.issues[0]?.message,
    ).toBe(
      'Nothing to change: send homeFigures, support, supportReplyHours, paymentInstructions, hourlyRateRange, defaultLanguage or subjects',
    );
    expect(siteSettingsChangeSchema.safeParse({ colours: {} }).error?.issues[0]?.message).toBe(
      'The site settings have no such field: colours',
    );
  });
});

describe('the school’s own figures', () => {
  it('shows a real count from 10 on, written as the home page writes figures', () => {
    expect(countFigure(0)).toBeNull();
    expect(countFigure(9)).toBeNull();
    expect(countFigure(10)).toBe('10');
    expect(countFigure(12_345)).toBe('12,345');
  });

  it('says what most tutors charge in the school’s currency, and a reply time in hours', () => {
    expect(typicalRateLabel({ low: 25, high: 75 }, 'USD')).toBe('$25-$75 per hour');
    expect(typicalRateLabel({ low: 30, high: 30 }, 'EUR')).toBe('€30 per hour');
    expect(typicalRateLabel({ low: 2000, high: 6000 }, 'JPY')).toBe('¥2,000-¥6,000 per hour');
    expect(replyTimeLabel(1)).toBe('1 hour');
    expect(replyTimeLabel(24)).toBe('24 hours');
  });

  it('reads the counts again only once they are older than their age, and again after a failure', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      let reads = 0;
      let fail = false;
      const read = vi.fn(async () => {
        reads += 1;
        if (fail) throw new Error('database away');
        return reads;
      });
      const counts = cachedFor(60_000, read);
      expect(await counts()).toBe(1);
      vi.setSystemTime(Date.now() + 59_000);
      expect(await counts()).toBe(1);
      vi.setSystemTime(Date.now() + 2_000);
      fail = true;
      await expect(counts()).rejects.toThrow('database away');
      fail = false;
      expect(await counts()).toBe(3);
      expect(read).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
