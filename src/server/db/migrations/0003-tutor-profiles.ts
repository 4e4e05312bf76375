/**
 * Tutor profiles and discovery: what a tutor publishes, what a student keeps (time zone, learning
 * goals), profile photos (stored in the database so every server shares them), and a full-text
 * search document with a GIN index, the same SQL on PGlite and PostgreSQL.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('learning_goals', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('tutor_profiles')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('headline', 'text', (c) => c.notNull().defaultTo('').check(sql`char_length(headline) <= 80`))
    .addColumn('about', 'text', (c) => c.notNull().defaultTo('').check(sql`char_length(about) <= 2000`))
    .addColumn('subjects', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('categories', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('languages', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('hourly_rate', 'integer', (c) => c.check(sql`hourly_rate between 5 and 500`))
    .addColumn('years_experience', 'integer', (c) => c.check(sql`years_experience between 0 and 60`))
    .addColumn('has_photo', 'boolean', (c) => c.notNull().defaultTo(false))
    // Kept up to date by the publication rule: verified email, photo or headline, a
    // subject, a rate and an about text. Search reads only this flag.
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('search_document', sql`tsvector`, (c) => c.notNull().defaultTo(sql`''::tsvector`))
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index tutor_profiles_search_idx on tutor_profiles using gin (search_document) where published`.execute(
    db,
  );
  await sql`create index tutor_profiles_subjects_idx on tutor_profiles using gin (subjects) where published`.execute(
    db,
  );
  await sql`create index tutor_profiles_categories_idx on tutor_profiles using gin (categories) where published`.execute(
    db,
  );
  await sql`create index tutor_profiles_languages_idx on tutor_profiles using gin (languages) where published`.execute(
    db,
  );
  await sql`create index tutor_profiles_rate_idx on tutor_profiles (hourly_rate) where published`.execute(db);
  await sql`create index tutor_profiles_published_at_idx on tutor_profiles (published_at desc) where published`.execute(
    db,
  );

  await db.schema
    .createTable('profile_photos')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('image', 'bytea', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
