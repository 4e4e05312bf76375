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
}

export interface ProfilePhotosTable {
  user_id: string;
  image: Uint8Array;
  content_type: string;
  version: string;
  updated_at: Timestamp;
}

export interface DB {
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
