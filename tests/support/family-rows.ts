/**
 * Families made straight in the database, for the tests of what families change elsewhere
 * (messages, mails) while the family routes are built apart: a parent signs up through the API as
 * anyone does; a child without a login is the row /family would add (no credential, an address
 * nobody reads); a student is linked to a parent as an accepted invitation would leave them.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/server/db/schema';
import { childAddress } from '../../src/server/platform/family-links';
import { type CookieJar, get, verifiedUser } from './accounts';
import type { MailCatcher } from './mail-catcher';
import type { TestApp } from './test-app';

export interface Someone {
  jar: CookieJar;
  id: string;
  email: string;
  name: string;
}

/** A verified, signed-in parent. */
export async function parentAccount(t: TestApp, mailbox: MailCatcher, name: string): Promise<Someone> {
  const account = await verifiedUser(t, mailbox, { role: 'parent', name });
  const id = (await (await get(t, '/api/session', account.jar)).json()).user.id as string;
  return { jar: account.jar, id, email: account.email.toLowerCase(), name };
}

/** The year of birth of a child `age` years old, as the product counts ages. */
export const bornYearsAgo = (age: number) => new Date().getUTCFullYear() - age;

/**
 * Whether a text shows that year as a number of its own. A random id may hold its four digits
 * (a UUID's "…-a409d3320175"): those sit inside a word, or after a hyphen in a UUID's groups, and
 * are not the year.
 */
export const showsYear = (text: string, year: number) => new RegExp(`(?<![\\w-])${year}(?!\\w)`).test(text);

/**
 * A child without a login, as a parent adds one at /family; with `parentId` null, a child row
 * linked to nobody (what no route makes, for the rule that nobody writes to a young child).
 */
export async function childWithoutLogin(
  db: Kysely<DB>,
  parentId: string | null,
  firstName: string,
  age: number,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      display_name: firstName,
      email: childAddress(id),
      email_verified: false,
      role: 'student',
      birth_year: bornYearsAgo(age),
    })
    .execute();
  if (parentId) await linkStudent(db, parentId, id, true);
  return id;
}

/**
 * Each link a millisecond at least after the one before: a parent's children are listed in the
 * order they were added, and the embedded store's clock reads whole milliseconds, so two links
 * written one after the other by the column's default `now()` can carry the same time.
 */
let lastLinkedAt = 0;

/** A student linked to their paying parent (with a year of birth, for a child the parent added). */
export async function linkStudent(
  db: Kysely<DB>,
  parentId: string,
  studentId: string,
  addedByParent: boolean,
  age?: number,
) {
  if (age !== undefined)
    await db
      .updateTable('users')
      .set({ birth_year: bornYearsAgo(age) })
      .where('id', '=', studentId)
      .execute();
  lastLinkedAt = Math.max(Date.now(), lastLinkedAt + 1);
  await db
    .insertInto('family_links')
    .values({
      parent_id: parentId,
      student_id: studentId,
      added_by_parent: addedByParent,
      created_at: new Date(lastLinkedAt),
    })
    .execute();
}
