/**
 * The database as Kysely sees it: one interface per table, in snake_case as in the migrations.
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  email_verified: Generated<boolean>;
  image: string | null;
  role: Generated<'student' | 'tutor'>;
  time_zone: string | null;
  learning_goals: Generated<string>;
  /** Whether unread messages are mailed after ten minutes. */
  message_mails: Generated<boolean>;
  /** An operator: granted and revoked only from the command line (npm run admin). */
  is_admin: Generated<boolean>;
  suspended_at: Timestamp | null;
  suspension_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EmailVerificationTokensTable {
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  used_at: Timestamp | null;
}

export interface CaptchaSolutionsTable {
  id: string;
  expires_at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  claimed_until: Timestamp | null;
  sent_at: Timestamp | null;
  last_error: string | null;
  reply_to: string | null;
  /** A lesson's iCalendar invitation, sent as the mail's calendar part. */
  calendar: string | null;
  calendar_method: string | null;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  points: number;
  expire: string | null;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  message: string;
  user_id: string | null;
  client_address: string | null;
  created_at: Timestamp;
}

export interface TutorProfilesTable {
  user_id: string;
  headline: Generated<string>;
  about: Generated<string>;
  subjects: Generated<string[]>;
  categories: Generated<string[]>;
  languages: Generated<string[]>;
  hourly_rate: number | null;
  years_experience: number | null;
  has_photo: Generated<boolean>;
  published: Generated<boolean>;
  search_document: Generated<string>;
  published_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** How many reviews the tutor has, and the sum of their ratings (kept with each review). */
  rating_count: Generated<number>;
  rating_sum: Generated<number>;
  verification_status: Generated<VerificationStatus>;
  verification_requested_at: Timestamp | null;
  approved_at: Timestamp | null;
  /** The rate and subjects as approved, to show admins what changed since. */
  approved_rate: number | null;
  approved_subjects: string[] | null;
}

export type VerificationStatus = 'none' | 'requested' | 'approved' | 'declined';

/** A tutor's verification history: each request and each decision. */
export interface TutorVerificationsTable {
  id: Generated<number>;
  tutor_id: string;
  event: 'requested' | 'approved' | 'declined';
  note: Generated<string>;
  admin_name: string | null;
  hourly_rate: number | null;
  subjects: Generated<string[]>;
  created_at: Generated<Date>;
}

export type ReportResolution = 'dismissed' | 'hidden' | 'suspended';

/** What admins did, and the command line's grants: appended, never changed (a trigger refuses). */
export interface AuditLogTable {
  id: Generated<number>;
  actor_id: string | null;
  actor: string;
  action: string;
  target_id: string | null;
  target: Generated<string>;
  reason: Generated<string>;
  created_at: Generated<Date>;
}

/** The one row of what an admin set in Site settings; null: the default. */
export interface SiteSettingsTable {
  id: Generated<number>;
  students_helped: string | null;
  expert_tutors: string | null;
  lessons_completed: string | null;
  support_email: string | null;
  support_phone: string | null;
  support_hours: string | null;
  updated_at: Timestamp;
}

/** The subject catalogue: what a tutor may list, by category; a retired one stays where it is listed. */
export interface SubjectsTable {
  id: Generated<number>;
  name: string;
  category: string;
  retired_at: Timestamp | null;
  created_at: Generated<Date>;
}

export interface ProfilePhotosTable {
  user_id: string;
  image: Uint8Array;
  content_type: string;
  version: string;
  updated_at: Timestamp;
}

export interface TutorAvailabilityTable {
  user_id: string;
  weekly: ColumnType<WeeklyWindowRow[], string, string>;
  overrides: ColumnType<DateOverrideRow[], string, string>;
  lesson_minutes: number[];
  slot_step_minutes: number;
  minimum_notice_hours: number;
  booking_horizon_days: number;
  buffer_minutes: number;
  instant_booking: boolean;
  updated_at: Timestamp;
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

export type LessonStatusColumn =
  | 'pending'
  | 'confirmed'
  | 'declined'
  | 'expired'
  | 'cancelled'
  | 'completed'
  | 'no_show';

export interface LessonsTable {
  id: string;
  tutor_id: string;
  student_id: string;
  subject: string;
  note: Generated<string>;
  starts_at: Timestamp;
  ends_at: Timestamp;
  minutes: number;
  blocked_until: Timestamp;
  price_cents: number;
  currency: Generated<string>;
  status: LessonStatusColumn;
  expires_at: Timestamp | null;
  sequence: Generated<number>;
  idempotency_key: string | null;
  /** Which of its two people cancelled it; null when Tutorlane did (an account suspended). */
  cancelled_by: string | null;
  cancel_reason: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CalendarFeedsTable {
  user_id: string;
  token: string;
  created_at: Generated<Date>;
}

/**
 * A student and a tutor (`student_id`, `tutor_id`), or a person and the school's support
 * (`requester_id`, the pair's columns empty): the database refuses any mix.
 */
export interface ConversationsTable {
  id: string;
  student_id: string | null;
  tutor_id: string | null;
  student_read_id: Generated<number>;
  tutor_read_id: Generated<number>;
  student_mailed: Generated<boolean>;
  tutor_mailed: Generated<boolean>;
  /** The person who asked support; their one support conversation. */
  requester_id: string | null;
  requester_read_id: Generated<number>;
  requester_mailed: Generated<boolean>;
  /** Support's side: one read mark and mail flag shared by every admin. */
  support_read_id: Generated<number>;
  support_mailed: Generated<boolean>;
  last_message_id: Generated<number>;
  last_activity_at: Generated<Date>;
  created_at: Generated<Date>;
}

/** A system line's lesson change, kept as facts so each reader sees it in their own zone. */
export interface MessageEvent {
  event: 'requested' | 'confirmed' | 'declined' | 'cancelled' | 'rescheduled' | 'expired';
  lessonId: string;
  start: string;
  end: string;
  subject: string;
}

export interface MessagesTable {
  id: Generated<number>;
  conversation_id: string;
  sender_id: string | null;
  body: string;
  event: ColumnType<MessageEvent | null, string | null, string | null>;
  created_at: Generated<Date>;
  /** Set when a moderator hid it: readers see that it was removed, not what it said. */
  hidden_at: Date | null;
}

export interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: Generated<Date>;
}

export interface MessageReportsTable {
  id: Generated<number>;
  message_id: number;
  reporter_id: string;
  reason: string;
  message_text: string;
  created_at: Generated<Date>;
  resolved_at: Date | null;
  resolution: ReportResolution | null;
  resolved_by: string | null;
}

/** Who joined a lesson's room, first and last. */
export interface LessonAttendanceTable {
  lesson_id: string;
  user_id: string;
  first_joined_at: Timestamp;
  last_joined_at: Timestamp;
}

/** The lesson room's text chat, kept with the lesson. */
export interface LessonChatTable {
  id: Generated<number>;
  lesson_id: string;
  sender_id: string;
  body: string;
  created_at: Generated<Date>;
}

/** A live frame too large for a NOTIFY payload, read by id by the servers that listen. */
export interface LivePayloadsTable {
  id: Generated<number>;
  body: string;
  created_at: Generated<Date>;
}

export interface ReviewsTable {
  id: string;
  tutor_id: string;
  student_id: string;
  rating: number;
  body: string;
  created_at: Generated<Date>;
  edited_at: Date | null;
  answer: string | null;
  answered_at: Date | null;
  /** Set when a moderator hid it: out of the tutor's page and rating. */
  hidden_at: Date | null;
}

export interface ReviewReportsTable {
  id: Generated<number>;
  review_id: string;
  reporter_id: string;
  reason: string;
  review_text: string;
  created_at: Generated<Date>;
  resolved_at: Date | null;
  resolution: ReportResolution | null;
  resolved_by: string | null;
}

/** The tutor's notes on a lesson that took place. */
export interface LessonNotesTable {
  lesson_id: string;
  covered: string;
  homework: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A student's learning goal in one subject. */
export interface GoalsTable {
  id: string;
  student_id: string;
  subject: string;
  title: string;
  /** A calendar day ("YYYY-MM-DD"), read as text so no zone shifts it. */
  target_date: ColumnType<string | null, string | null | undefined, string | null>;
  completed_at: Date | null;
  first_completed_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface GoalMilestonesTable {
  id: string;
  goal_id: string;
  title: string;
  done_at: Date | null;
  done_by: string | null;
  created_by: string | null;
  created_at: Generated<Date>;
}

export interface DB {
  site_settings: SiteSettingsTable;
  subjects: SubjectsTable;
  tutor_verifications: TutorVerificationsTable;
  audit_log: AuditLogTable;
  lesson_notes: LessonNotesTable;
  goals: GoalsTable;
  goal_milestones: GoalMilestonesTable;
  reviews: ReviewsTable;
  review_reports: ReviewReportsTable;
  lesson_attendance: LessonAttendanceTable;
  lesson_chat: LessonChatTable;
  live_payloads: LivePayloadsTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  blocks: BlocksTable;
  message_reports: MessageReportsTable;
  tutor_availability: TutorAvailabilityTable;
  lessons: LessonsTable;
  calendar_feeds: CalendarFeedsTable;
  tutor_profiles: TutorProfilesTable;
  profile_photos: ProfilePhotosTable;
  contact_messages: ContactMessagesTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  email_verification_tokens: EmailVerificationTokensTable;
  captcha_solutions: CaptchaSolutionsTable;
  mail_outbox: MailOutboxTable;
  rate_limits: RateLimitsTable;
}
