/**
 * Site settings: what a school tells its visitors (the home page's three figures, the support
 * address, phone and business hours), one row that an admin edits in the console; the subject
 * catalogue that tutors choose from, now data rather than code; and an index that finds the home
 * page's featured tutor.
 *
 * A setting left empty (null) means the product's default: the figures and hours of the first
 * description, and the support address and phone of the configuration. So a deployment keeps what
 * it shows today until an admin saves something else.
 */
import { type Kysely, sql } from 'kysely';

/**
 * The catalogue as it shipped before it could be edited, in its order. Written out here rather than
 * imported: a migration must insert the same rows whenever it runs, whatever the code's default
 * list becomes later.
 */
const FIRST_CATALOGUE: [category: string, subjects: string[]][] = [
  ['Math & Science', ['Algebra', 'Geometry', 'Calculus', 'Statistics', 'Physics', 'Chemistry', 'Biology']],
  ['Languages', ['English', 'Spanish', 'French', 'German', 'Mandarin', 'Japanese', 'Italian']],
  ['Programming', ['Python', 'JavaScript', 'Java', 'C++', 'Web Development', 'Data Science', 'SQL']],
  [
    'Arts & Design',
    ['Drawing', 'Painting', 'Graphic Design', 'Photography', 'Music Theory', 'Piano', 'Guitar'],
  ],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_settings')
    // One row, always there: a change is an UPDATE of it, which also serialises two admins saving.
    .addColumn('id', 'smallint', (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn('students_helped', 'text', (c) => c.check(sql`char_length(students_helped) between 1 and 20`))
    .addColumn('expert_tutors', 'text', (c) => c.check(sql`char_length(expert_tutors) between 1 and 20`))
    .addColumn('lessons_completed', 'text', (c) =>
      c.check(sql`char_length(lessons_completed) between 1 and 20`),
    )
    .addColumn('support_email', 'text', (c) => c.check(sql`char_length(support_email) between 3 and 254`))
    .addColumn('support_phone', 'text', (c) => c.check(sql`char_length(support_phone) between 1 and 40`))
    .addColumn('support_hours', 'text', (c) => c.check(sql`char_length(support_hours) between 1 and 120`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`insert into site_settings (id) values (1)`.execute(db);

  await db.schema
    .createTable('subjects')
    // The catalogue's order: the first list's, then each addition after its category's others.
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().check(sql`char_length(name) between 1 and 40`))
    .addColumn('category', 'text', (c) =>
      c.notNull().check(sql`category in ('Math & Science', 'Languages', 'Programming', 'Arts & Design')`),
    )
    // Retired: kept on the profiles that have it (still shown, searched and booked there), but no
    // longer offered to a profile that does not.
    .addColumn('retired_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // "History" and "history" are one subject: the database refuses the second, even from two admins at once.
  await sql`create unique index subjects_name_idx on subjects (lower(name))`.execute(db);
  // The home page's featured tutor (findFeaturedTutor in src/server/tutors/tutor-search.ts): the
  // best rated listed tutor with a photo, found in one index entry however many tutors there are.
  // The score is the search's Bayesian average, with review-rules' prior (4 stars, 5 reviews).
  await sql`create index tutor_profiles_featured_idx on tutor_profiles
    ((-((20 + rating_sum)::float8 / (5 + rating_count))), rating_count desc, published_at desc, user_id)
    where published and has_photo`.execute(db);

  for (const [category, names] of FIRST_CATALOGUE) {
    for (const name of names)
      await sql`insert into subjects (name, category) values (${name}, ${category})`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
