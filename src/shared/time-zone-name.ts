/**
 * A time zone's name as a person reads it, "Eastern Time (New York)", rather than its IANA id
 * ("America/New_York"): the words mails use for the zone their times are in. The name is Intl's
 * generic one, which does not change with daylight saving time, so a sentence about a lesson in
 * July reads as well as one about a lesson in January.
 */

const UTC_NAME = 'Coordinated Universal Time (UTC)';
/** Zones that are UTC itself under another id. */
const UTC_IDS = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/UCT',
  'Etc/Universal',
  'Etc/Zulu',
  'UCT',
  'Universal',
  'Zulu',
]);

/**
 * Places renamed since their zone got its id. Browsers and Node name zones by ICU's ids, which
 * keep the old ones ("Asia/Calcutta" for India): the people there read today's names.
 */
const RENAMED_PLACES: Record<string, string> = {
  Calcutta: 'Kolkata',
  Katmandu: 'Kathmandu',
  Saigon: 'Ho Chi Minh City',
  Rangoon: 'Yangon',
  Kiev: 'Kyiv',
  Godthab: 'Nuuk',
  Faeroe: 'Faroe',
  Dacca: 'Dhaka',
  Thimbu: 'Thimphu',
  Ujung_Pandang: 'Makassar',
  Truk: 'Chuuk',
  Ponape: 'Pohnpei',
};

/** The place a zone is named after: "Asia/Kolkata" → "Kolkata", "America/Argentina/Salta" → "Salta". */
export function placeOfTimeZone(zone: string): string {
  const place = zone.split('/').at(-1) ?? zone;
  return (RENAMED_PLACES[place] ?? place).replaceAll('_', ' ');
}

function namePart(
  zone: string,
  timeZoneName: 'long' | 'longGeneric' | 'shortOffset',
  at: number,
  locale: string,
): string {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName }).formatToParts(at);
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/**
 * "Eastern Time (New York)", "India Standard Time (Kolkata)", "Coordinated Universal Time (UTC)".
 * A zone Intl has no name for is named by its offset at `at` ("GMT-05:00"), with its place when
 * it has one; an id Intl does not know is given back as it is. Named in `locale`'s words (Intl has
 * zone names per locale: "hora del este" in es), by default in English.
 */
export function timeZoneName(zone: string, at = Date.now(), locale = 'en-US'): string {
  const english = locale === 'en' || locale.startsWith('en-');
  if (UTC_IDS.has(zone)) return english ? UTC_NAME : `${namePart('UTC', 'long', at, locale) || 'UTC'} (UTC)`;
  const name = namePart(zone, 'longGeneric', at, locale);
  if (!name) return zone;
  // Without a name of its own, Intl gives the offset ("GMT-05:00") in the name's place.
  const named = !/^(GMT|UTC)/.test(name);
  if (zone.startsWith('Etc/')) return named ? name : namePart(zone, 'shortOffset', at, locale) || name;
  return `${named ? name : namePart(zone, 'shortOffset', at, locale) || name} (${placeOfTimeZone(zone)})`;
}
