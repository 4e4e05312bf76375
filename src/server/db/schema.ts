/**
 * The database as Kysely sees it. The tables and their columns come from ./generated/, which
 * kysely-codegen writes from a database migrated by ./migrations (`npm run db:types`; a test fails
 * while it is stale). What the database knows but cannot tell kysely-codegen is added here: the
 * values a CHECK constraint allows, the shape of a JSON column, how a column is read.
 */
import type { ColumnType, SelectType } from 'kysely';
import { VERIFICATION_STATUSES, type VerificationStatus } from '../../shared/admin/admin-rules';
import { ROLES, type Role } from '../../shared/constants';
import { LESSON_STATUSES, type LessonStatus } from '../../shared/lessons/lesson-schemas';
import {
  UNAPPLIED_PAYMENT_REASONS,
  type UnappliedPaymentReason,
} from '../../shared/money/unapplied-payments';
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

export const REPORT_RESOLUTIONS = ['dismissed', 'hidden', 'suspended'] as const;
export type ReportResolution = (typeof REPORT_RESOLUTIONS)[number];

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
export const TUTOR_VERIFICATION_EVENTS = ['requested', 'approved', 'declined'] as const;
type TutorVerificationsTable = WithColumns<
  Generated.TutorVerifications,
  { event: (typeof TUTOR_VERIFICATION_EVENTS)[number] }
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

export const LESSON_PACKAGE_STATUSES = ['active', 'ended'] as const;
export type LessonPackageStatus = (typeof LESSON_PACKAGE_STATUSES)[number];
type LessonPackagesTable = WithColumns<Generated.LessonPackages, { status: Defaulted<LessonPackageStatus> }>;

type LessonsTable = WithColumns<
  Generated.Lessons,
  { status: LessonStatus; payment_status: Defaulted<LessonPaymentStatus> }
>;

/**
 * A student and a tutor (`student_id`, `tutor_id`), a person and the school's support
 * (`requester_id`, the pair's columns empty), or a group class (`class_id`, its people in
 * conversation_members): the database refuses any mix.
 */
export type ConversationsTable = Generated.Conversations;

/** Who a class conversation's member is in the class. */
export const CONVERSATION_MEMBER_ROLES = ['tutor', 'student'] as const;
export type ConversationMemberRole = (typeof CONVERSATION_MEMBER_ROLES)[number];
type ConversationMembersTable = WithColumns<Generated.ConversationMembers, { role: ConversationMemberRole }>;

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
export const LEDGER_ACCOUNT_KINDS = ['balance', 'hold', 'payable', 'revenue', 'clearing', 'package'] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];
export const LEDGER_TRANSACTION_KINDS = [
  'top_up',
  'lesson_hold',
  'lesson_release',
  'lesson_settle',
  'lesson_refund',
  'payout',
  'balance_refund',
  'package_buy',
  'package_end',
  'package_refund',
] as const;
export type LedgerTransactionKind = (typeof LEDGER_TRANSACTION_KINDS)[number];
export const LESSON_PAYMENT_STATUSES = ['none', 'held', 'settled', 'released', 'refunded', 'fee'] as const;
export type LessonPaymentStatus = (typeof LESSON_PAYMENT_STATUSES)[number];
export const TOP_UP_STATUSES = ['pending', 'confirmed', 'rejected', 'withdrawn'] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];
export const TOP_UP_METHODS = ['manual', 'stripe'] as const;
export type TopUpMethod = (typeof TOP_UP_METHODS)[number];
/** Payments that reached no top-up: from Stripe only, so far. */
export const UNAPPLIED_PAYMENT_PROVIDERS = ['stripe'] as const;

/** Written by the running-balance trigger, whatever an insert says; never updated. */
type SetByTrigger<T> = ColumnType<T, never, never>;

type LedgerAccountsTable = WithColumns<Generated.LedgerAccounts, { kind: LedgerAccountKind }>;
/** The people's accounts whose balances a checkpoint keeps (migration 0043). */
export const LEDGER_PEOPLE_ACCOUNT_KINDS = [
  'balance',
  'payable',
] as const satisfies readonly LedgerAccountKind[];
type LedgerCheckpointBalancesTable = WithColumns<
  Generated.LedgerCheckpointBalances,
  { account_kind: (typeof LEDGER_PEOPLE_ACCOUNT_KINDS)[number] }
>;
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
  { provider: (typeof UNAPPLIED_PAYMENT_PROVIDERS)[number]; reason: UnappliedPaymentReason }
>;

/** A request kept under its Idempotency-Key (migration 0032): running, or done with its answer. */
export const IDEMPOTENT_REQUEST_STATES = ['running', 'done'] as const;
export type IdempotentRequestState = (typeof IDEMPOTENT_REQUEST_STATES)[number];
type IdempotentRequestsTable = WithColumns<Generated.IdempotentRequests, { state: IdempotentRequestState }>;

/** A group class and its sessions (migration 0035): planned, or called off. */
export const CLASS_STATUSES = ['scheduled', 'cancelled'] as const;
export type ClassRowStatus = (typeof CLASS_STATUSES)[number];
/** Where a student stands in a class: in a seat, waiting, or out (by leaving, removal, or the class's end). */
export const CLASS_ENROLMENT_STATUSES = ['enrolled', 'waitlisted', 'left', 'removed', 'cancelled'] as const;
export type ClassEnrolmentStatus = (typeof CLASS_ENROLMENT_STATUSES)[number];
type ClassesTable = WithColumns<Generated.Classes, { status: Defaulted<ClassRowStatus> }>;
type ClassSessionsTable = WithColumns<Generated.ClassSessions, { status: Defaulted<ClassRowStatus> }>;
type ClassEnrolmentsTable = WithColumns<Generated.ClassEnrolments, { status: ClassEnrolmentStatus }>;

/** A family's mailed invitation (migration 0038): a child's own login, or a student's parent. */
export const FAMILY_INVITATION_KINDS = ['child_login', 'parent'] as const;
export type FamilyInvitationKind = (typeof FAMILY_INVITATION_KINDS)[number];
type FamilyInvitationsTable = WithColumns<Generated.FamilyInvitations, { kind: FamilyInvitationKind }>;

export type DB = WithColumns<
  Generated.DB,
  {
    users: UsersTable;
    tutor_profiles: TutorProfilesTable;
    tutor_verifications: TutorVerificationsTable;
    tutor_availability: TutorAvailabilityTable;
    lessons: LessonsTable;
    messages: MessagesTable;
    conversation_members: ConversationMembersTable;
    message_reports: MessageReportsTable;
    review_reports: ReviewReportsTable;
    goals: GoalsTable;
    profile_photos: ProfilePhotosTable;
    ledger_accounts: LedgerAccountsTable;
    ledger_checkpoint_balances: LedgerCheckpointBalancesTable;
    ledger_transactions: LedgerTransactionsTable;
    ledger_entries: LedgerEntriesTable;
    top_ups: TopUpsTable;
    unapplied_payments: UnappliedPaymentsTable;
    lesson_packages: LessonPackagesTable;
    idempotent_requests: IdempotentRequestsTable;
    classes: ClassesTable;
    class_sessions: ClassSessionsTable;
    class_enrolments: ClassEnrolmentsTable;
    family_invitations: FamilyInvitationsTable;
  }
>;

/**
 * The values each CHECK constraint of the form `column in (...)` allows, as the unions above type
 * the column: the database and the types must say the same, and
 * tests/integration/check-constraints.test.ts compares these lists with the constraints.
 */
export const CHECKED_COLUMN_VALUES = {
  'users.role': ROLES,
  'tutor_profiles.verification_status': VERIFICATION_STATUSES,
  'tutor_verifications.event': TUTOR_VERIFICATION_EVENTS,
  'lessons.status': LESSON_STATUSES,
  'lessons.payment_status': LESSON_PAYMENT_STATUSES,
  'lesson_packages.status': LESSON_PACKAGE_STATUSES,
  'message_reports.resolution': REPORT_RESOLUTIONS,
  'conversation_members.role': CONVERSATION_MEMBER_ROLES,
  'review_reports.resolution': REPORT_RESOLUTIONS,
  'ledger_accounts.kind': LEDGER_ACCOUNT_KINDS,
  'ledger_checkpoint_balances.account_kind': LEDGER_PEOPLE_ACCOUNT_KINDS,
  'ledger_transactions.kind': LEDGER_TRANSACTION_KINDS,
  'top_ups.status': TOP_UP_STATUSES,
  'top_ups.method': TOP_UP_METHODS,
  'unapplied_payments.provider': UNAPPLIED_PAYMENT_PROVIDERS,
  'unapplied_payments.reason': UNAPPLIED_PAYMENT_REASONS,
  'idempotent_requests.state': IDEMPOTENT_REQUEST_STATES,
  'classes.status': CLASS_STATUSES,
  'class_sessions.status': CLASS_STATUSES,
  'class_enrolments.status': CLASS_ENROLMENT_STATUSES,
  'family_invitations.kind': FAMILY_INVITATION_KINDS,
} as const;

/** Whether the column named `Key` ("table.column") reads as exactly the values listed for it. */
type ListedValuesTypeColumn<Key extends keyof typeof CHECKED_COLUMN_VALUES> =
  Key extends `${infer Table extends keyof DB}.${infer Column}`
    ? Column extends keyof DB[Table]
      ? [NonNullable<SelectType<DB[Table][Column]>>] extends [(typeof CHECKED_COLUMN_VALUES)[Key][number]]
        ? [(typeof CHECKED_COLUMN_VALUES)[Key][number]] extends [NonNullable<SelectType<DB[Table][Column]>>]
          ? true
          : false
        : false
      : false
    : false;

/**
 * Fails to compile when a list above is not the union its column is typed with (so the test that
 * compares the lists with the database compares the types too).
 */
export type CheckedColumnsTypedByTheirLists =
  {
    [Key in keyof typeof CHECKED_COLUMN_VALUES]: ListedValuesTypeColumn<Key>;
  } extends Record<keyof typeof CHECKED_COLUMN_VALUES, true>
    ? true
    : never;
export const checkedColumnsTypedByTheirLists: CheckedColumnsTypedByTheirLists = true;
