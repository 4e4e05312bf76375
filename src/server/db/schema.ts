/**
 * The database as Kysely sees it. The tables and their columns come from ./generated.ts, which
 * kysely-codegen writes from a database migrated by ./migrations (`npm run db:types`; a test fails
 * while it is stale). What the database knows but cannot tell kysely-codegen is added here: the
 * values a CHECK constraint allows, the shape of a JSON column, how a column is read.
 */
import type { ColumnType } from 'kysely';
import type { VerificationStatus } from '../../shared/admin/admin-rules';
import type { Role } from '../../shared/constants';
import type { LessonStatus } from '../../shared/lessons/lesson-schemas';
import type { UnappliedPaymentReason } from '../../shared/money/unapplied-payments';
import type * as Generated from './generated';

/**
 * `Table` with the columns in `Columns` given their narrower types; a name that is not one of the
 * table's columns is an error, so a renamed column cannot leave a stale override behind.
 */
type WithColumns<
  Table,
  Columns extends { [Name in keyof Columns]: Name extends keyof Table ? unknown : never },
> = {
  [Name in keyof Table]: Name extends keyof Columns ? Columns[Name] : Table[Name];
};

/** A column with a default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

/** A JSON column: read as `T`, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;

export type LessonStatusColumn = LessonStatus;

export type ReportResolution = 'dismissed' | 'hidden' | 'suspended';

/** A system line's lesson change, kept as facts so each reader sees it in their own zone. */
export interface MessageEvent {
  event: 'requested' | 'confirmed' | 'declined' | 'cancelled' | 'rescheduled' | 'expired';
  lessonId: string;
  start: string;
  end: string;
  subject: string;
}

interface WeeklyWindowRow {
  weekday: number;
  start: string;
  end: string;
}

interface DateOverrideRow {
  date: string;
  windows: { start: string; end: string }[];
}

type UsersTable = WithColumns<Generated.Users, { role: Defaulted<Role> }>;

type TutorProfilesTable = WithColumns<
  Generated.TutorProfiles,
  { verification_status: Defaulted<VerificationStatus> }
>;

/** A tutor's verification history: each request and each decision. */
type TutorVerificationsTable = WithColumns<
  Generated.TutorVerifications,
  { event: 'requested' | 'approved' | 'declined' }
>;

type TutorAvailabilityTable = WithColumns<
  Generated.TutorAvailability,
  {
    weekly: Json<WeeklyWindowRow[]>;
    overrides: Json<DateOverrideRow[]>;
    packages: ColumnType<PackageOfferRow[], string | undefined, string>;
  }
>;

/** A lesson package a tutor offers (migration 0020). */
interface PackageOfferRow {
  lessons: number;
  minutes: number;
  discountPercent: number;
}

export type LessonPackageStatus = 'active' | 'ended';
type LessonPackagesTable = WithColumns<Generated.LessonPackages, { status: Defaulted<LessonPackageStatus> }>;

type LessonsTable = WithColumns<
  Generated.Lessons,
  { status: LessonStatus; payment_status: Defaulted<LessonPaymentStatus> }
>;

/**
 * A student and a tutor (`student_id`, `tutor_id`), or a person and the school's support
 * (`requester_id`, the pair's columns empty): the database refuses any mix.
 */
export type ConversationsTable = Generated.Conversations;

export type MessagesTable = WithColumns<
  Generated.Messages,
  { event: ColumnType<MessageEvent | null, string | null, string | null> }
>;

type MessageReportsTable = WithColumns<Generated.MessageReports, { resolution: ReportResolution | null }>;

export type ReviewsTable = Generated.Reviews;

type ReviewReportsTable = WithColumns<Generated.ReviewReports, { resolution: ReportResolution | null }>;

/** A student's learning goal in one subject. */
type GoalsTable = WithColumns<
  Generated.Goals,
  {
    /** A calendar day ("YYYY-MM-DD"), read as text (`target_date::text`) so no zone shifts it. */
    target_date: ColumnType<string | null, string | null | undefined, string | null>;
  }
>;

/** PGlite reads a bytea as a Uint8Array; pg's Buffer is one too. */
type ProfilePhotosTable = WithColumns<Generated.ProfilePhotos, { image: Uint8Array }>;

/** The one row of what an admin set in Site settings; null: the default. */
export type SiteSettingsTable = Generated.SiteSettings;

/** Money's ledger (migration 0014): what the CHECK constraints allow, and what its trigger fills in. */
export type LedgerAccountKind = 'balance' | 'hold' | 'payable' | 'revenue' | 'clearing' | 'package';
export type LedgerTransactionKind =
  | 'top_up'
  | 'lesson_hold'
  | 'lesson_release'
  | 'lesson_settle'
  | 'lesson_refund'
  | 'payout'
  | 'balance_refund'
  | 'package_buy'
  | 'package_end'
  | 'package_refund';
export type LessonPaymentStatus = 'none' | 'held' | 'settled' | 'released' | 'refunded' | 'fee';
export type TopUpStatus = 'pending' | 'confirmed' | 'rejected' | 'withdrawn';
export type TopUpMethod = 'manual' | 'stripe';

/** Written by the running-balance trigger, whatever an insert says; never updated. */
type SetByTrigger<T> = ColumnType<T, never, never>;

type LedgerAccountsTable = WithColumns<Generated.LedgerAccounts, { kind: LedgerAccountKind }>;
type LedgerTransactionsTable = WithColumns<Generated.LedgerTransactions, { kind: LedgerTransactionKind }>;
type LedgerEntriesTable = WithColumns<
  Generated.LedgerEntries,
  {
    account_kind: SetByTrigger<LedgerAccountKind>;
    account_seq: SetByTrigger<number>;
    balance_after_cents: SetByTrigger<number>;
  }
>;
type TopUpsTable = WithColumns<Generated.TopUps, { status: Defaulted<TopUpStatus>; method: TopUpMethod }>;
type UnappliedPaymentsTable = WithColumns<
  Generated.UnappliedPayments,
  { provider: 'stripe'; reason: UnappliedPaymentReason }
>;

/** A request kept under its Idempotency-Key (migration 0032): running, or done with its answer. */
export type IdempotentRequestState = 'running' | 'done';
type IdempotentRequestsTable = WithColumns<Generated.IdempotentRequests, { state: IdempotentRequestState }>;

export type DB = WithColumns<
  Generated.DB,
  {
    users: UsersTable;
    tutor_profiles: TutorProfilesTable;
    tutor_verifications: TutorVerificationsTable;
    tutor_availability: TutorAvailabilityTable;
    lessons: LessonsTable;
    messages: MessagesTable;
    message_reports: MessageReportsTable;
    review_reports: ReviewReportsTable;
    goals: GoalsTable;
    profile_photos: ProfilePhotosTable;
    ledger_accounts: LedgerAccountsTable;
    ledger_transactions: LedgerTransactionsTable;
    ledger_entries: LedgerEntriesTable;
    top_ups: TopUpsTable;
    unapplied_payments: UnappliedPaymentsTable;
    lesson_packages: LessonPackagesTable;
    idempotent_requests: IdempotentRequestsTable;
  }
>;
