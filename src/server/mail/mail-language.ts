/**
 * The language a mail is written in: its recipient's saved language, else the school's default
 * (Site settings, else DEFAULT_LANGUAGE); never the sender's. And the words of that language a
 * mail needs beside its texts: dates, times and amounts in its locale.
 */
import { type AmountStyle, formatAmount } from '../../shared/amounts';
import { intlLocaleOf, isLanguage, type Language, SOURCE_LANGUAGE } from '../../shared/languages';
import { type TimeLabels, timeLabels } from '../../shared/time-labels';
import { placeOfTimeZone, timeZoneName } from '../../shared/time-zone-name';
import { type TextValues, translate } from '../i18n/translations';

/** The school's default language in effect, asked when a mail is written. */
export type DefaultLanguage = () => Language;

/** The recipient's saved language (null: they never chose), else the school's default. */
export function mailLanguage(saved: string | null | undefined, defaultLanguage?: DefaultLanguage): Language {
  if (isLanguage(saved)) return saved;
  return defaultLanguage?.() ?? SOURCE_LANGUAGE;
}

/** What writing a mail in one language takes: its texts, its dates and its amounts. */
export interface MailWords {
  language: Language;
  /** A marked English text in the mail's language, with its values in place. */
  t(text: string, values?: TextValues): string;
  times: TimeLabels;
  amount(amountCents: number, currency: string, style?: Omit<AmountStyle, 'locale'>): string;
  /** A time zone's name in words, "Eastern Time (New York)", in the mail's language. */
  zone(zone: string, at?: number): string;
}

/** The zone's generic name in `locale` with its place, as timeZoneName says it in English. */
function zoneName(language: Language, zone: string, at: number): string {
  const english = timeZoneName(zone, at);
  if (language === SOURCE_LANGUAGE || english === zone) return english;
  if (english.endsWith('(UTC)')) return translate(language, /*i18n*/ 'Coordinated Universal Time (UTC)');
  try {
    const parts = new Intl.DateTimeFormat(intlLocaleOf(language), {
      timeZone: zone,
      timeZoneName: 'longGeneric',
    });
    const name = parts.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value;
    if (!name || name.startsWith('GMT') || zone.startsWith('Etc/')) return english;
    return `${name} (${placeOfTimeZone(zone)})`;
  } catch {
    return english;
  }
}

const labels = new Map<Language, TimeLabels>();

export function mailWords(language: Language): MailWords {
  let times = labels.get(language);
  if (!times) {
    // English keeps the product's US wording ("Tuesday, December 1, 2026").
    times = timeLabels(language === SOURCE_LANGUAGE ? 'en-US' : intlLocaleOf(language));
    labels.set(language, times);
  }
  const locale = language === SOURCE_LANGUAGE ? 'en-US' : intlLocaleOf(language);
  return {
    language,
    t: (text, values) => translate(language, text, values),
    times,
    amount: (amountCents, currency, style = {}) => formatAmount(amountCents, currency, { ...style, locale }),
    zone: (zone, at = Date.now()) => zoneName(language, zone, at),
  };
}
