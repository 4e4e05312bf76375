/**
 * Site settings: the home page's figures, how to reach support and how soon it answers, what a
 * bank-transfer top-up says to do, the hourly rates tutors may ask, and the subject catalogue, which an admin edits in the console
 * (GET and PATCH /api/admin/settings). A setting never saved is the product's default: the first
 * description's business hours, the configuration's support email, phone and payment instructions,
 * the school's real counts for the figures (each shown once it reaches MIN_SHOWN_COUNT), no
 * promise of a reply time, and the currency's default range of hourly rates. Each change that changes
 * something is one `settings.changed` audit entry, written in the same transaction, whose reason
 * says what changed.
 */
import { type Kysely, sql, type Updateable } from 'kysely';
import { formatUnits } from '../../shared/amounts';
import { isLanguage, LANGUAGES, type Language } from '../../shared/languages';
import {
  countFigure,
  DEFAULT_BUSINESS_HOURS,
  defaultHourlyRateRange,
  HOME_FIGURES,
  type HomeFigureKey,
  type HomeFigures,
  type HourlyRateRange,
  hourlyRateRangeLabel,
  maxHourlyRateUnits,
  replyTimeLabel,
  type ShownFigures,
  type SupportDetails,
} from '../../shared/settings/site-settings';
import type { SiteSettingsChange } from '../../shared/settings/site-settings-schemas';
import type { SubjectCatalog, TypicalHourlyRate } from '../../shared/tutor-catalog';
import type { DB, SiteSettingsTable } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type Actor, recordAudit } from '../platform/audit-log';
import type { SchoolCounts, SchoolFigures } from './school-figures';
import { type CatalogSubject, groupCatalog, readSubjects } from './subject-catalog';

/**
 * What the configuration says until an admin saves otherwise (SUPPORT_EMAIL, SUPPORT_PHONE, and
 * PAYMENT_INSTRUCTIONS or the product's text).
 */
export interface SettingsDefaults {
  supportEmail: string;
  supportPhone: string;
  paymentInstructions: string;
  /** CURRENCY: hourly rates are in its whole units, and their default range depends on it. */
  currency: string;
  /** DEFAULT_LANGUAGE: the school's language until an admin picks one. */
  language: Language;
}

/** The settings in effect, as every page and GET /api/config carry them. */
export interface SiteSettings {
  /** An admin's figures, else the real counts that reached MIN_SHOWN_COUNT (null: not shown). */
  homeFigures: ShownFigures;
  support: SupportDetails;
  /** How soon support answers, in hours; null: no promise is made. */
  supportReplyHours: number | null;
  /** What a bank-transfer top-up says to do: an admin's, else the configuration's. */
  paymentInstructions: string;
  /** What most listed tutors charge an hour (not a setting: the tutors' own rates say it). */
  typicalHourlyRate: TypicalHourlyRate | null;
  /** The hourly rates a tutor may ask, in whole units of the currency. */
  hourlyRateRange: HourlyRateRange;
  /** The language of a visitor whose browser asks for none we speak, and of mails to people who chose none. */
  defaultLanguage: Language;
  subjects: SubjectCatalog;
}

/** What the console shows: what was saved, the counts behind unset figures, each subject's state. */
export interface AdminSiteSettings {
  /** Null until an admin sets them: the home page shows the real counts. */
  homeFigures: HomeFigures | null;
  homeCounts: SchoolCounts;
  support: SupportDetails;
  supportReplyHours: number | null;
  /** The payment instructions in effect, and whether an admin wrote them (false: the default ones). */
  paymentInstructions: string;
  paymentInstructionsSet: boolean;
  /** The range in effect, and whether an admin set it (false: the currency's default). */
  hourlyRateRange: HourlyRateRange;
  hourlyRateRangeSet: boolean;
  /** The default language in effect, and whether an admin chose it (false: DEFAULT_LANGUAGE). */
  defaultLanguage: Language;
  defaultLanguageSet: boolean;
  subjects: (CatalogSubject & { tutors: number })[];
}

type SettingsRow = Pick<
  SiteSettingsTable,
  | 'students_helped'
  | 'expert_tutors'
  | 'lessons_completed'
  | 'support_email'
  | 'support_phone'
  | 'support_hours'
  | 'support_reply_hours'
  | 'payment_instructions'
  | 'hourly_rate_min'
  | 'hourly_rate_max'
  | 'default_language'
>;

const settingsColumns = [
  'students_helped',
  'expert_tutors',
  'lessons_completed',
  'support_email',
  'support_phone',
  'support_hours',
  'support_reply_hours',
  'payment_instructions',
  'hourly_rate_min',
  'hourly_rate_max',
  'default_language',
] as const;

const FIGURE_COLUMNS = {
  studentsHelped: 'students_helped',
  expertTutors: 'expert_tutors',
  lessonsCompleted: 'lessons_completed',
} as const satisfies Record<HomeFigureKey, keyof SettingsRow>;

const SUPPORT_COLUMNS = {
  email: 'support_email',
  phone: 'support_phone',
  hours: 'support_hours',
} as const satisfies Record<keyof SupportDetails, keyof SettingsRow>;

const SUPPORT_LABELS: Record<keyof SupportDetails, string> = {
  email: 'Support email',
  phone: 'Support phone',
  hours: 'Business hours',
};

/** The figures an admin saved, or null while any is unset (they are saved together). */
function savedFigures(row: SettingsRow | undefined): HomeFigures | null {
  const figures = {
    studentsHelped: row?.students_helped ?? null,
    expertTutors: row?.expert_tutors ?? null,
    lessonsCompleted: row?.lessons_completed ?? null,
  };
  return Object.values(figures).every((figure) => figure !== null) ? (figures as HomeFigures) : null;
}

function supportOf(row: SettingsRow | undefined, defaults: SettingsDefaults): SupportDetails {
  return {
    email: row?.support_email ?? defaults.supportEmail,
    phone: row?.support_phone ?? defaults.supportPhone,
    hours: row?.support_hours ?? DEFAULT_BUSINESS_HOURS,
  };
}

/** Each figure as the home page shows it: the admin's, else its real count once it reaches the minimum. */
function shownFigures(row: SettingsRow | undefined, counts: SchoolCounts): ShownFigures {
  return Object.fromEntries(
    HOME_FIGURES.map(({ key }) => [key, row?.[FIGURE_COLUMNS[key]] ?? countFigure(counts[key])]),
  ) as ShownFigures;
}

/** The admin's range when both ends are saved, else the currency's default. */
function hourlyRateRangeOf(row: SettingsRow | undefined, defaults: SettingsDefaults): HourlyRateRange {
  return row?.hourly_rate_min != null && row.hourly_rate_max != null
    ? { min: row.hourly_rate_min, max: row.hourly_rate_max }
    : defaultHourlyRateRange(defaults.currency);
}

/** The admin's language while we still speak it, else the configuration's. */
const defaultLanguageOf = (row: SettingsRow | undefined, defaults: SettingsDefaults): Language =>
  isLanguage(row?.default_language) ? row.default_language : defaults.language;

async function readRow(db: Kysely<DB>): Promise<SettingsRow | undefined> {
  return db.selectFrom('site_settings').select(settingsColumns).where('id', '=', 1).executeTakeFirst();
}

/**
 * The settings in effect. `figures` are the school's own (./school-figures.ts): the counts are
 * shown only where an admin set no figure.
 */
export async function readSiteSettings(
  db: Kysely<DB>,
  defaults: SettingsDefaults,
  figures: () => Promise<SchoolFigures>,
): Promise<SiteSettings> {
  const [row, subjects, school] = await Promise.all([readRow(db), readSubjects(db), figures()]);
  return {
    homeFigures: shownFigures(row, school.counts),
    support: supportOf(row, defaults),
    supportReplyHours: row?.support_reply_hours ?? null,
    paymentInstructions: row?.payment_instructions ?? defaults.paymentInstructions,
    typicalHourlyRate: school.typicalHourlyRate,
    hourlyRateRange: hourlyRateRangeOf(row, defaults),
    defaultLanguage: defaultLanguageOf(row, defaults),
    subjects: groupCatalog(subjects),
  };
}

/** The settings in effect as the console shows them, with the counts read now. */
export async function readAdminSettings(
  db: Kysely<DB>,
  defaults: SettingsDefaults,
  figures: () => Promise<SchoolFigures>,
): Promise<AdminSiteSettings> {
  const [row, subjects, counts, school] = await Promise.all([
    readRow(db),
    readSubjects(db),
    // Every profile that lists a subject, published or not: who a retirement would leave with it.
    sql<{ name: string; tutors: number }>`
      select subject as name, count(*)::int as tutors
      from tutor_profiles, unnest(subjects) as subject
      group by subject`.execute(db),
    figures(),
  ]);
  const tutors = new Map(counts.rows.map((count) => [count.name, count.tutors]));
  return {
    homeFigures: savedFigures(row),
    homeCounts: school.counts,
    support: supportOf(row, defaults),
    supportReplyHours: row?.support_reply_hours ?? null,
    paymentInstructions: row?.payment_instructions ?? defaults.paymentInstructions,
    paymentInstructionsSet: row?.payment_instructions != null,
    hourlyRateRange: hourlyRateRangeOf(row, defaults),
    hourlyRateRangeSet: row?.hourly_rate_min != null,
    defaultLanguage: defaultLanguageOf(row, defaults),
    defaultLanguageSet: isLanguage(row?.default_language),
    subjects: subjects.map((subject) => ({ ...subject, tutors: tutors.get(subject.name) ?? 0 })),
  };
}

const refuse = (message: string): never => {
  throw new ApiError(400, message, 'VALIDATION_ERROR');
};

/**
 * Applies a change, in one transaction that first locks the settings row, so two admins saving at
 * once are applied one after the other, each seeing the other's result. Values equal to those in
 * effect change nothing; what did change is returned in words, and audited so.
 */
export async function changeSiteSettings(
  db: Kysely<DB>,
  actor: Actor,
  change: SiteSettingsChange,
  defaults: SettingsDefaults,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('site_settings')
      .select(settingsColumns)
      .where('id', '=', 1)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const updates: Updateable<SiteSettingsTable> = {};
    const changed: string[] = [];

    // Figures: an admin's replace the real counts; null gives the counts back.
    const REAL_COUNT = 'the real count';
    for (const { key, label } of HOME_FIGURES) {
      if (change.homeFigures === undefined) break;
      const saved = row[FIGURE_COLUMNS[key]];
      const next = change.homeFigures === null ? null : change.homeFigures[key];
      if (next === saved) continue;
      updates[FIGURE_COLUMNS[key]] = next;
      changed.push(`${label}: ${saved ?? REAL_COUNT} → ${next ?? REAL_COUNT}`);
    }
    const support = supportOf(row, defaults);
    for (const key of ['email', 'phone', 'hours'] as const) {
      const next = change.support?.[key];
      if (next === undefined || next === support[key]) continue;
      updates[SUPPORT_COLUMNS[key]] = next;
      changed.push(`${SUPPORT_LABELS[key]}: ${support[key]} → ${next}`);
    }
    const replyHours = change.supportReplyHours;
    if (replyHours !== undefined && replyHours !== row.support_reply_hours) {
      const said = (hours: number | null) => (hours === null ? 'not set' : replyTimeLabel(hours));
      updates.support_reply_hours = replyHours;
      changed.push(`Support reply time: ${said(row.support_reply_hours)} → ${said(replyHours)}`);
    }
    // Instructions: text equal to those in effect changes nothing (as the support details); null
    // gives the configuration's back.
    const instructions = change.paymentInstructions;
    const saved = row.payment_instructions;
    if (
      instructions !== undefined &&
      (instructions === null ? saved !== null : instructions !== (saved ?? defaults.paymentInstructions))
    ) {
      // Whole and on one line (JSON-quoted): where students are told to send money is what an
      // audit of a change to it must be able to read back exactly.
      const said = (text: string | null) => (text === null ? 'the default' : JSON.stringify(text));
      updates.payment_instructions = instructions;
      changed.push(`Payment instructions: ${said(saved)} → ${said(instructions)}`);
    }
    // A range equal to the one in effect changes nothing; null gives the currency's default back.
    const range = change.hourlyRateRange;
    const ceiling = maxHourlyRateUnits(defaults.currency);
    if (range && range.max > ceiling)
      refuse(`The highest hourly rate can be at most ${formatUnits(ceiling, defaults.currency)}`);
    const current = hourlyRateRangeOf(row, defaults);
    const next = range ?? defaultHourlyRateRange(defaults.currency);
    if (
      range !== undefined &&
      (range === null ? row.hourly_rate_min !== null : next.min !== current.min || next.max !== current.max)
    ) {
      updates.hourly_rate_min = range?.min ?? null;
      updates.hourly_rate_max = range?.max ?? null;
      const said = (value: HourlyRateRange) => hourlyRateRangeLabel(value, defaults.currency);
      changed.push(
        `Hourly rate range: ${said(current)} → ${said(next)}${range === null ? ' (the default)' : ''}`,
      );
    }

    // Null gives DEFAULT_LANGUAGE back; the language in effect changes nothing.
    const language = change.defaultLanguage;
    if (language !== undefined && (language ?? defaults.language) !== defaultLanguageOf(row, defaults)) {
      const said = (code: Language) => LANGUAGES.find((known) => known.code === code)?.name ?? code;
      updates.default_language = language;
      changed.push(
        `Default language: ${said(defaultLanguageOf(row, defaults))} → ${said(language ?? defaults.language)}${language === null ? ' (the default)' : ''}`,
      );
    }

    changed.push(...(await changeCatalog(trx, change.subjects ?? {})));
    if (changed.length === 0) return changed;
    if (Object.keys(updates).length > 0)
      await trx
        .updateTable('site_settings')
        .set({ ...updates, updated_at: new Date() })
        .where('id', '=', 1)
        .execute();
    await recordAudit(
      trx,
      actor,
      'settings.changed',
      { id: null, label: 'Site settings' },
      changed.join('\n'),
    );
    return changed;
  });
}

/**
 * Adds and retires subjects. Names are compared as the database's unique index compares them
 * (lower()), so "history" finds "History"; adding a retired subject back restores it, in its
 * own category.
 */
async function changeCatalog(
  trx: Kysely<DB>,
  change: NonNullable<SiteSettingsChange['subjects']>,
): Promise<string[]> {
  const adds = change.add ?? [];
  const retires = change.retire ?? [];
  if (adds.length === 0 && retires.length === 0) return [];
  const names = [...adds.map((add) => add.name), ...retires];
  // Each name given, with the subject it names: lower() on both sides, as the unique index compares.
  const { rows } = await sql<{
    given: string;
    key: string;
    id: number | null;
    name: string | null;
    category: string | null;
    retired_at: Date | null;
  }>`
    select given.name as given, lower(given.name) as key, s.id, s.name, s.category, s.retired_at
    from unnest(${names}::text[]) as given(name)
    left join subjects s on lower(s.name) = lower(given.name)`.execute(trx);
  const keys = new Map(rows.map((row) => [row.given, row.key]));
  const existing = new Map(rows.filter((row) => row.id !== null).map((row) => [row.key, row]));

  const seen = new Set<string>();
  const once = (name: string) => {
    const key = keys.get(name) ?? name;
    if (seen.has(key)) refuse(`${name} is named twice in this change: add or retire each subject once`);
    seen.add(key);
    return key;
  };

  const changed: string[] = [];
  const added: string[] = [];
  const restored: string[] = [];
  for (const { category, name } of adds) {
    const row = existing.get(once(name));
    if (!row) {
      await trx.insertInto('subjects').values({ name, category }).execute();
      added.push(`${name} (${category})`);
    } else if (row.retired_at === null) {
      refuse(`${row.name} is already in the catalogue, in ${row.category}`);
    } else if (row.category !== category) {
      refuse(`${row.name} is a retired subject of ${row.category}: add it to ${row.category} to restore it`);
    } else {
      await trx.updateTable('subjects').set({ retired_at: null }).where('id', '=', Number(row.id)).execute();
      restored.push(`${row.name} (${row.category})`);
    }
  }
  const retired: string[] = [];
  for (const name of retires) {
    const row = existing.get(once(name));
    if (!row) refuse(`There is no subject named ${name} in the catalogue to retire`);
    else if (row.retired_at === null) {
      await trx
        .updateTable('subjects')
        .set({ retired_at: new Date() })
        .where('id', '=', Number(row.id))
        .execute();
      retired.push(`${row.name} (${row.category})`);
    }
  }
  if (added.length) changed.push(`Subjects added: ${added.join(', ')}`);
  if (restored.length) changed.push(`Subjects restored: ${restored.join(', ')}`);
  if (retired.length) changed.push(`Subjects retired: ${retired.join(', ')}`);
  return changed;
}
