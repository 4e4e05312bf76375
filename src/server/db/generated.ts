/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ./migrations: do not
 * edit. Narrower column types (CHECK constraints, JSON shapes) are added in ./schema.ts.
 */
import type { ColumnType } from "kysely";

export type Generated<T> = T extends ColumnType<infer S, infer I, infer U>
  ? ColumnType<S, I | undefined, U>
  : ColumnType<T, T | undefined, T>;

export type Json = JsonValue;

export type JsonArray = JsonValue[];

export type JsonObject = {
  [x: string]: JsonValue | undefined;
};

export type JsonPrimitive = boolean | number | string | null;

export type JsonValue = JsonArray | JsonObject | JsonPrimitive;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface Accounts {
  access_token: string | null;
  access_token_expires_at: Timestamp | null;
  account_id: string;
  created_at: Generated<Timestamp>;
  id: string;
  id_token: string | null;
  password: string | null;
  provider_id: string;
  refresh_token: string | null;
  refresh_token_expires_at: Timestamp | null;
  scope: string | null;
  updated_at: Generated<Timestamp>;
  user_id: string;
}

export interface AuditLog {
  action: string;
  actor: string;
  actor_id: string | null;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  reason: Generated<string>;
  target: Generated<string>;
  target_id: string | null;
}

export interface Blocks {
  blocked_id: string;
  blocker_id: string;
  created_at: Generated<Timestamp>;
}

export interface CalendarFeeds {
  created_at: Generated<Timestamp>;
  token: string;
  user_id: string;
}

export interface CaptchaSolutions {
  expires_at: Timestamp;
  id: string;
}

export interface ContactMessages {
  client_address: string | null;
  created_at: Generated<Timestamp>;
  email: string;
  id: Generated<number>;
  message: string;
  name: string;
  subject: string;
  user_id: string | null;
}

export interface Conversations {
  created_at: Generated<Timestamp>;
  id: string;
  last_activity_at: Generated<Timestamp>;
  last_message_id: Generated<number>;
  requester_id: string | null;
  requester_mailed: Generated<boolean>;
  requester_read_id: Generated<number>;
  student_id: string | null;
  student_mailed: Generated<boolean>;
  student_read_id: Generated<number>;
  support_mailed: Generated<boolean>;
  support_read_id: Generated<number>;
  tutor_id: string | null;
  tutor_mailed: Generated<boolean>;
  tutor_read_id: Generated<number>;
}

export interface EmailVerificationTokens {
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  token_hash: string;
  used_at: Timestamp | null;
  user_id: string;
}

export interface GoalMilestones {
  created_at: Generated<Timestamp>;
  created_by: string | null;
  done_at: Timestamp | null;
  done_by: string | null;
  goal_id: string;
  id: string;
  title: string;
}

export interface Goals {
  completed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  first_completed_at: Timestamp | null;
  id: string;
  student_id: string;
  subject: string;
  target_date: Timestamp | null;
  title: string;
  updated_at: Generated<Timestamp>;
}

export interface IdempotentRequests {
  attempt: string;
  body_hash: string;
  content_type: string | null;
  created_at: Generated<Timestamp>;
  key: string;
  method: string;
  path: string;
  response_body: string | null;
  started_at: Generated<Timestamp>;
  state: string;
  status: number | null;
  user_id: string;
}

export interface LedgerAccounts {
  created_at: Generated<Timestamp>;
  currency: string;
  id: string;
  kind: string;
  lesson_id: string | null;
  user_id: string | null;
}

export interface LedgerCheckpoints {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  name: string;
  through_entry_id: number;
  total_cents: number;
}

export interface LedgerEntries {
  account_id: string;
  account_kind: string;
  account_seq: number;
  amount_cents: number;
  balance_after_cents: number;
  id: Generated<number>;
  transaction_id: number;
}

export interface LedgerTransactions {
  actor_id: string | null;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  idempotency_key: string;
  kind: string;
  lesson_id: string | null;
  memo: Generated<string>;
}

export interface LessonAttendance {
  first_joined_at: Timestamp;
  last_joined_at: Timestamp;
  lesson_id: string;
  user_id: string;
}

export interface LessonChat {
  body: string;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  lesson_id: string;
  sender_id: string;
}

export interface LessonNotes {
  covered: string;
  created_at: Generated<Timestamp>;
  homework: string;
  lesson_id: string;
  updated_at: Generated<Timestamp>;
}

export interface LessonPackages {
  bought_at: Generated<Timestamp>;
  currency: string;
  discount_percent: number;
  ended_at: Timestamp | null;
  id: string;
  lessons: number;
  minutes: number;
  per_lesson_cents: number;
  status: Generated<string>;
  student_id: string;
  tutor_id: string;
}

export interface LessonReminders {
  kind: string;
  lesson_id: string;
  sent_at: Generated<Timestamp>;
  starts_at: Timestamp;
  user_id: string;
}

export interface Lessons {
  blocked_until: Timestamp;
  cancel_fee_cents: number | null;
  cancel_reason: string | null;
  cancel_window_hours: Generated<number>;
  cancelled_by: string | null;
  cancelled_late: Generated<boolean>;
  commission_percent: number | null;
  created_at: Generated<Timestamp>;
  currency: Generated<string>;
  ends_at: Timestamp;
  expires_at: Timestamp | null;
  id: string;
  idempotency_key: string | null;
  late_fee_percent: Generated<number>;
  minutes: number;
  note: Generated<string>;
  package_id: string | null;
  payment_status: Generated<string>;
  price_cents: number;
  proposal_note: string | null;
  proposed_at: Timestamp | null;
  proposed_end: Timestamp | null;
  proposed_start: Timestamp | null;
  sequence: Generated<number>;
  series_id: string | null;
  starts_at: Timestamp;
  status: string;
  student_id: string;
  subject: string;
  trial: Generated<boolean>;
  tutor_id: string;
  updated_at: Generated<Timestamp>;
}

export interface LessonSeries {
  created_at: Generated<Timestamp>;
  id: string;
  student_id: string;
  tutor_id: string;
  weeks: number;
}

export interface LivePayloads {
  body: string;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
}

export interface MailOutbox {
  attempts: Generated<number>;
  calendar: string | null;
  calendar_method: string | null;
  claimed_until: Timestamp | null;
  created_at: Generated<Timestamp>;
  html_body: string;
  id: Generated<number>;
  last_error: string | null;
  next_attempt_at: Generated<Timestamp>;
  recipient: string;
  reply_to: string | null;
  sent_at: Timestamp | null;
  subject: string;
  text_body: string;
}

export interface MessageReports {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  message_id: number;
  message_text: string;
  reason: string;
  reporter_id: string;
  resolution: string | null;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
}

export interface Messages {
  body: string;
  conversation_id: string;
  created_at: Generated<Timestamp>;
  erased_at: Timestamp | null;
  event: Json | null;
  hidden_at: Timestamp | null;
  id: Generated<number>;
  sender_id: string | null;
}

export interface ProfilePhotos {
  content_type: string;
  image: Buffer;
  updated_at: Generated<Timestamp>;
  user_id: string;
  version: string;
}

export interface RateLimits {
  expire: number | null;
  key: string;
  points: Generated<number>;
}

export interface ReviewReports {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  reason: string;
  reporter_id: string;
  resolution: string | null;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
  review_id: string;
  review_text: string;
}

export interface Reviews {
  answer: string | null;
  answered_at: Timestamp | null;
  body: string;
  created_at: Generated<Timestamp>;
  edited_at: Timestamp | null;
  hidden_at: Timestamp | null;
  id: string;
  rating: number;
  student_id: string;
  tutor_id: string;
}

export interface Sessions {
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  id: string;
  ip_address: string | null;
  token: string;
  two_factor_verified: Generated<boolean>;
  updated_at: Generated<Timestamp>;
  user_agent: string | null;
  user_id: string;
}

export interface SiteSettings {
  expert_tutors: string | null;
  hourly_rate_max: number | null;
  hourly_rate_min: number | null;
  id: Generated<number>;
  lessons_completed: string | null;
  payment_instructions: string | null;
  students_helped: string | null;
  support_email: string | null;
  support_hours: string | null;
  support_phone: string | null;
  support_reply_hours: number | null;
  updated_at: Generated<Timestamp>;
}

export interface Subjects {
  category: string;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  name: string;
  retired_at: Timestamp | null;
}

export interface TopUps {
  amount_cents: number;
  created_at: Generated<Timestamp>;
  currency: string;
  id: string;
  method: string;
  note: string | null;
  reference: string;
  settled_at: Timestamp | null;
  settled_by: string | null;
  status: Generated<string>;
  stripe_session_id: string | null;
  student_id: string;
}

export interface TutorAvailability {
  booking_horizon_days: Generated<number>;
  buffer_minutes: Generated<number>;
  cancellation_window_hours: Generated<number>;
  instant_booking: Generated<boolean>;
  late_cancel_fee_percent: Generated<number>;
  lesson_minutes: Generated<number[]>;
  minimum_notice_hours: Generated<number>;
  overrides: Generated<Json>;
  packages: Generated<Json>;
  slot_step_minutes: Generated<number>;
  trial_offered: Generated<boolean>;
  trial_price_cents: Generated<number>;
  updated_at: Generated<Timestamp>;
  user_id: string;
  weekly: Generated<Json>;
}

export interface TutorProfiles {
  about: Generated<string>;
  approved_at: Timestamp | null;
  approved_rate: number | null;
  approved_subjects: string[] | null;
  categories: Generated<string[]>;
  created_at: Generated<Timestamp>;
  has_photo: Generated<boolean>;
  headline: Generated<string>;
  hourly_rate: number | null;
  languages: Generated<string[]>;
  published: Generated<boolean>;
  published_at: Timestamp | null;
  rating_count: Generated<number>;
  rating_sum: Generated<number>;
  search_document: Generated<string>;
  subjects: Generated<string[]>;
  updated_at: Generated<Timestamp>;
  user_id: string;
  verification_requested_at: Timestamp | null;
  verification_status: Generated<string>;
  years_experience: number | null;
}

export interface TutorVerifications {
  admin_name: string | null;
  created_at: Generated<Timestamp>;
  event: string;
  hourly_rate: number | null;
  id: Generated<number>;
  note: Generated<string>;
  subjects: Generated<string[]>;
  tutor_id: string;
}

export interface TwoFactors {
  backup_codes: string;
  created_at: Generated<Timestamp>;
  failed_verification_count: Generated<number>;
  id: string;
  locked_until: Timestamp | null;
  secret: string;
  user_id: string;
  verified: Generated<boolean>;
}

export interface UnappliedPayments {
  amount_cents: number;
  currency: string;
  id: string;
  provider: string;
  provider_reference: string;
  reason: string;
  reported_at: Generated<Timestamp>;
  top_up_id: string;
}

export interface UsedTwoFactorCodes {
  code: string;
  expires_at: Timestamp;
  user_id: string;
}

export interface Users {
  created_at: Generated<Timestamp>;
  deleted_at: Timestamp | null;
  display_name: string;
  email: string;
  email_verified: Generated<boolean>;
  id: string;
  image: string | null;
  is_admin: Generated<boolean>;
  learning_goals: Generated<string>;
  message_mails: Generated<boolean>;
  reminder_day_before: Generated<boolean>;
  reminder_hour_before: Generated<boolean>;
  role: Generated<string>;
  suspended_at: Timestamp | null;
  suspension_reason: string | null;
  time_zone: string | null;
  two_factor_enabled: Generated<boolean>;
  updated_at: Generated<Timestamp>;
  welcomed_session_id: string | null;
}

export interface Verifications {
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  id: string;
  identifier: string;
  updated_at: Generated<Timestamp>;
  value: string;
}

export interface DB {
  accounts: Accounts;
  audit_log: AuditLog;
  blocks: Blocks;
  calendar_feeds: CalendarFeeds;
  captcha_solutions: CaptchaSolutions;
  contact_messages: ContactMessages;
  conversations: Conversations;
  email_verification_tokens: EmailVerificationTokens;
  goal_milestones: GoalMilestones;
  goals: Goals;
  idempotent_requests: IdempotentRequests;
  ledger_accounts: LedgerAccounts;
  ledger_checkpoints: LedgerCheckpoints;
  ledger_entries: LedgerEntries;
  ledger_transactions: LedgerTransactions;
  lesson_attendance: LessonAttendance;
  lesson_chat: LessonChat;
  lesson_notes: LessonNotes;
  lesson_packages: LessonPackages;
  lesson_reminders: LessonReminders;
  lesson_series: LessonSeries;
  lessons: Lessons;
  live_payloads: LivePayloads;
  mail_outbox: MailOutbox;
  message_reports: MessageReports;
  messages: Messages;
  profile_photos: ProfilePhotos;
  rate_limits: RateLimits;
  review_reports: ReviewReports;
  reviews: Reviews;
  sessions: Sessions;
  site_settings: SiteSettings;
  subjects: Subjects;
  top_ups: TopUps;
  tutor_availability: TutorAvailability;
  tutor_profiles: TutorProfiles;
  tutor_verifications: TutorVerifications;
  two_factors: TwoFactors;
  unapplied_payments: UnappliedPayments;
  used_two_factor_codes: UsedTwoFactorCodes;
  users: Users;
  verifications: Verifications;
}
