/** How many filters narrow a search, as the Filters button of /tutors says on a phone. */
import { describe, expect, it } from 'vitest';
import { activeFilterCount } from '../../src/client/features/tutors/tutor-api';

const search = (query: string) => new URLSearchParams(query);

describe('activeFilterCount', () => {
  it('counts the category, subject, language, rating, and the price range as one', () => {
    expect(activeFilterCount(search(''))).toBe(0);
    expect(activeFilterCount(search('q=guitar&sort=rating&page=2'))).toBe(0);
    expect(activeFilterCount(search('subject=Guitar&language=English'))).toBe(2);
    expect(activeFilterCount(search('minPrice=20'))).toBe(1);
    expect(activeFilterCount(search('minPrice=20&maxPrice=50'))).toBe(1);
    expect(
      activeFilterCount(
        search('category=Languages&subject=Spanish&language=English&minRating=4&maxPrice=50'),
      ),
    ).toBe(5);
  });

  it('does not count a parameter left empty', () => {
    expect(activeFilterCount(search('subject=&language=+&minPrice='))).toBe(0);
  });
});
