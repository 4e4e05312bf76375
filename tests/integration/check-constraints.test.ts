/**
 * The values a CHECK constraint lists (`status in ('pending', 'confirmed', ...)`) are written twice:
 * in a migration, for the database, and as a union in src/server/db/schema.ts, for the code. Read
 * from a freshly migrated embedded database, each constraint must allow exactly the values of its
 * union (CHECKED_COLUMN_VALUES, which schema.ts's types are checked against), and every such
 * constraint on a text column must have its list in TypeScript.
 */
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/server/db/migrate';
import { CHECKED_COLUMN_VALUES } from '../../src/server/db/schema';
import { REMINDER_KINDS } from '../../src/server/lessons/reminders-rules';
import { CONTACT_SUBJECT_VALUES, SUBJECT_CATEGORIES } from '../../src/shared/constants';

/**
 * Text columns with a list that schema.ts leaves typed as text: the code that writes each checks
 * its values against its own list, which must match the constraint all the same.
 */
const LISTED_OUTSIDE_THE_SCHEMA: Record<string, readonly string[]> = {
  'contact_messages.subject': CONTACT_SUBJECT_VALUES,
  'lesson_reminders.kind': REMINDER_KINDS,
  'subjects.category': SUBJECT_CATEGORIES,
};

let db: Kysely<unknown>;
/** "table.column" -> the values its constraint lists, sorted. */
let listed: Map<string, string[]>;

/** One value of a text list: `'no_show'::text`, with a quote written twice inside. */
const textValue = /'((?:[^']|'')*)'::text/g;

/**
 * The column and values of a constraint that lists text values for one column, as PostgreSQL
 * prints it back (`CHECK ((kind = ANY (ARRAY['a'::text, 'b'::text])))`, or `= 'a'::text` for
 * one); null for any other constraint.
 */
function listOf(definition: string): { column: string; values: string[] } | null {
  const match = /^CHECK \(\((\w+) = (?:ANY \(ARRAY\[(.*)\]\)|('(?:[^']|'')*'::text))\)\)$/.exec(definition);
  if (!match) return null;
  const [, column, many, one] = match;
  const text = many ?? one ?? '';
  const values = [...text.matchAll(textValue)].map(([, value]) => (value ?? '').replaceAll("''", "'"));
  // A list of numbers (lesson lengths, percentages) is no union of strings.
  if (values.length === 0) return null;
  return { column: column ?? '', values: values.sort() };
}

beforeAll(async () => {
  // The embedded database in memory, migrated by the project's own migrations, as the server has it.
  const pglite = await PGlite.create({ extensions: { btree_gist } });
  db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
  await migrateToLatest(db);
  const { rows } = await sql<{ table: string; definition: string }>`
    select conrelid::regclass::text as table, pg_get_constraintdef(oid) as definition
    from pg_constraint
    where contype = 'c' and connamespace = 'public'::regnamespace`.execute(db);
  listed = new Map();
  for (const { table, definition } of rows) {
    const list = listOf(definition);
    if (list) listed.set(`${table}.${list.column}`, list.values);
  }
}, 180_000);

afterAll(async () => {
  await db?.destroy();
});

describe('the CHECK constraints that list values', () => {
  it('are read from the database (the test sees them)', () => {
    expect(listed.get('lessons.status')).toContain('confirmed');
    expect(listed.get('unapplied_payments.provider')).toEqual(['stripe']);
  });

  it.each(Object.entries(CHECKED_COLUMN_VALUES))(
    'allow exactly the values of schema.ts: %s',
    (column, values) => {
      expect(listed.get(column), `${column}: the migrations and schema.ts disagree`).toEqual(
        [...values].sort(),
      );
    },
  );

  it.each(Object.entries(LISTED_OUTSIDE_THE_SCHEMA))(
    'allow exactly the values the code writes: %s',
    (column, values) => {
      expect(listed.get(column), `${column}: the migrations and the code disagree`).toEqual(
        [...values].sort(),
      );
    },
  );

  it('each have their list in TypeScript', () => {
    const known = new Set([...Object.keys(CHECKED_COLUMN_VALUES), ...Object.keys(LISTED_OUTSIDE_THE_SCHEMA)]);
    const unlisted = [...listed.keys()].filter((column) => !known.has(column)).sort();
    expect(unlisted, 'add a union in src/server/db/schema.ts and to CHECKED_COLUMN_VALUES').toEqual([]);
  });
});
