/** The subject a search was for among a tutor's subjects, which the tutor's page preselects for a booking. */
import { describe, expect, it } from 'vitest';
import {
  namesSubject,
  searchedSubject,
  taughtSubject,
} from '../../src/client/features/tutors/searched-subject';
import { DEFAULT_CATALOG } from '../../src/shared/tutor-catalog';

const search = (query: string) => new URLSearchParams(query);
const guitarAndSpanish = ['Spanish', 'Guitar', 'Music Theory'];

describe('taughtSubject', () => {
  it("gives the tutor's spelling of a subject named in any letter case", () => {
    expect(taughtSubject(guitarAndSpanish, 'guitar')).toBe('Guitar');
    expect(taughtSubject(guitarAndSpanish, ' MUSIC THEORY ')).toBe('Music Theory');
  });

  it('is null for a subject the tutor does not teach, or none', () => {
    expect(taughtSubject(guitarAndSpanish, 'Piano')).toBeNull();
    expect(taughtSubject(guitarAndSpanish, '')).toBeNull();
    expect(taughtSubject(guitarAndSpanish, null)).toBeNull();
  });
});

describe('namesSubject', () => {
  it.each([
    ['guitar', 'Guitar'],
    ['jazz GUITAR lessons', 'Guitar'],
    ['guitars', 'Guitar'],
    ['learn music theory', 'Music Theory'],
    ['c++ for games', 'C++'],
    ['Spanish, please', 'Spanish'],
  ])('"%s" names %s', (text, subject) => {
    expect(namesSubject(text, subject)).toBe(true);
  });

  it.each([
    ['javascript', 'Java'],
    ['guitarist', 'Guitar'],
    ['music', 'Music Theory'],
    ['c', 'C++'],
  ])('"%s" does not name %s', (text, subject) => {
    expect(namesSubject(text, subject)).toBe(false);
  });
});

describe('searchedSubject', () => {
  it('takes the subject filter when the tutor teaches it, in any case', () => {
    expect(searchedSubject(guitarAndSpanish, search('subject=Guitar'), DEFAULT_CATALOG)).toBe('Guitar');
    expect(searchedSubject(guitarAndSpanish, search('subject=spanish&q=guitar'), DEFAULT_CATALOG)).toBe(
      'Spanish',
    );
  });

  it('takes the one subject of the tutor that the search text names', () => {
    expect(searchedSubject(guitarAndSpanish, search('q=guitar'), DEFAULT_CATALOG)).toBe('Guitar');
    expect(searchedSubject(guitarAndSpanish, search('q=Flamenco+guitar+with+Gina'), DEFAULT_CATALOG)).toBe(
      'Guitar',
    );
  });

  it('takes the text when the subject filter names a subject the tutor does not teach', () => {
    expect(searchedSubject(guitarAndSpanish, search('subject=Piano&q=guitar'), DEFAULT_CATALOG)).toBe(
      'Guitar',
    );
  });

  it('takes the one subject of the tutor in the chosen category', () => {
    expect(searchedSubject(['Spanish', 'Guitar'], search('category=Arts+%26+Design'), DEFAULT_CATALOG)).toBe(
      'Guitar',
    );
  });

  it('chooses nothing when the search singles out no subject, or several', () => {
    expect(searchedSubject(guitarAndSpanish, search(''), DEFAULT_CATALOG)).toBeNull();
    expect(searchedSubject(guitarAndSpanish, search('q=patient+teacher'), DEFAULT_CATALOG)).toBeNull();
    expect(searchedSubject(guitarAndSpanish, search('q=spanish+guitar'), DEFAULT_CATALOG)).toBeNull();
    expect(searchedSubject(guitarAndSpanish, search('category=Arts+%26+Design'), DEFAULT_CATALOG)).toBeNull();
    expect(searchedSubject(guitarAndSpanish, search('category=Programming'), DEFAULT_CATALOG)).toBeNull();
    expect(searchedSubject(guitarAndSpanish, search('subject=Piano'), DEFAULT_CATALOG)).toBeNull();
  });
});
