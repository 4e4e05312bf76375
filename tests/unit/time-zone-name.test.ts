import { describe, expect, it } from 'vitest';
import { placeOfTimeZone, timeZoneName } from '../../src/shared/time-zone-name';

const JANUARY = Date.UTC(2026, 0, 15, 12);
const JULY = Date.UTC(2026, 6, 15, 12);

describe('a time zone’s name, as mails write it', () => {
  it.each([
    ['America/New_York', 'Eastern Time (New York)'],
    ['America/Los_Angeles', 'Pacific Time (Los Angeles)'],
    ['Europe/Berlin', 'Central European Time (Berlin)'],
    ['Australia/Sydney', 'Australian Eastern Time (Sydney)'],
    // No generic name of its own: the standard one, which is all it ever uses.
    ['Asia/Kolkata', 'India Standard Time (Kolkata)'],
    // The id browsers and Node give India, named after the city as it is called today.
    ['Asia/Calcutta', 'India Standard Time (Kolkata)'],
    ['Asia/Tokyo', 'Japan Standard Time (Tokyo)'],
    ['America/Argentina/Salta', 'Argentina Standard Time (Salta)'],
  ])('names %s "%s", the same in winter and in summer', (zone, name) => {
    expect(timeZoneName(zone, JANUARY)).toBe(name);
    expect(timeZoneName(zone, JULY)).toBe(name);
  });

  it('calls UTC by its name, under any of its ids', () => {
    for (const zone of ['UTC', 'Etc/UTC', 'Etc/Universal', 'Zulu'])
      expect(timeZoneName(zone, JANUARY)).toBe('Coordinated Universal Time (UTC)');
  });

  it('names a zone without a name by its offset, and gives back an id it does not know', () => {
    expect(timeZoneName('Etc/GMT+5', JANUARY)).toBe('GMT-5');
    expect(timeZoneName('Mars/Olympus_Mons', JANUARY)).toBe('Mars/Olympus_Mons');
  });

  it('never writes an IANA id for a zone it knows', () => {
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      const name = timeZoneName(zone, JANUARY);
      expect(name, zone).not.toContain('/');
      expect(name, zone).not.toContain('_');
    }
  });

  it('finds the place a zone is named after', () => {
    expect(placeOfTimeZone('America/Port_of_Spain')).toBe('Port of Spain');
    expect(placeOfTimeZone('America/Argentina/Salta')).toBe('Salta');
    expect(placeOfTimeZone('UTC')).toBe('UTC');
    expect(placeOfTimeZone('Europe/Kiev')).toBe('Kyiv');
    expect(placeOfTimeZone('Asia/Saigon')).toBe('Ho Chi Minh City');
  });
});
