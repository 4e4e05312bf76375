/**
 * Time zones as a person reads them: "India Standard Time (GMT+5:30) · Kolkata" rather than
 * "Asia/Calcutta". Names and offsets come from the browser's Intl data, for the date given (an
 * offset changes with daylight saving time). Mails name zones without the offset
 * (src/shared/time-zone-name.ts): a screen offers a choice among zones, a mail says one.
 */
import { t } from '@lingui/core/macro';
import { formatLocale } from '../../shared/format-locale';
import { placeOfTimeZone } from '../../shared/time-zone-name';

/** A zone's name or offset, in the page's language by default. */
function zonePart(
  zone: string,
  timeZoneName: 'long' | 'shortOffset',
  at: Date,
  locale: string = formatLocale(),
): string {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName }).formatToParts(at);
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/** A zone's name, offset and place, e.g. "Central European Standard Time (GMT+1) · Berlin". */
export function describeTimeZone(zone: string, at = new Date()): string {
  const name = zonePart(zone, 'long', at);
  const offset = zonePart(zone, 'shortOffset', at);
  if (!name) return zone;
  if (zone === 'UTC' || zone === 'Etc/UTC') return t`Coordinated Universal Time (UTC)`;
  if (zone.startsWith('Etc/')) return offset;
  // Where the browser knows no name, it gives the offset as the name: said once.
  if (name === offset || name.startsWith('GMT')) return `${offset} · ${placeOfTimeZone(zone)}`;
  return `${name} (${offset}) · ${placeOfTimeZone(zone)}`;
}

/** The UTC offset in minutes, for sorting (east of Greenwich positive). */
function offsetMinutes(zone: string, at: Date): number {
  // Read in English, whose offsets are written "GMT+5:30" whatever the page's language.
  const match = /GMT([+-])(\d{1,2})(?::(\d{2}))?/.exec(zonePart(zone, 'shortOffset', at, 'en-US'));
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** Every zone the browser knows, UTC first, then west to east, each with its description. */
export function timeZoneOptions(at = new Date()): { value: string; label: string }[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const others = zones
    .filter((zone) => zone !== 'UTC')
    .map((zone) => ({ value: zone, label: describeTimeZone(zone, at), offset: offsetMinutes(zone, at) }))
    .sort((a, b) => a.offset - b.offset || a.label.localeCompare(b.label, formatLocale()))
    .map(({ value, label }) => ({ value, label }));
  return [{ value: 'UTC', label: describeTimeZone('UTC', at) }, ...others];
}

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
