/**
 * Where a deleted person is named in words rather than by id: the audit log's labels and notes, and
 * the mails in the outbox. Run in the deletion's transaction, after the users row was emptied.
 * docs/security.md, "A person's own data", says what each keeps.
 */
import { sql, type Transaction } from 'kysely';
import { DELETED_USER_NAME } from '../../shared/account-data';
import type { DB } from '../db/schema';
import { escapeHtml } from '../mail/html';

/** The person as they were named: their id, address (lower case) and display name. */
export interface NamedPerson {
  id: string;
  email: string;
  name: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The name as a whole: not inside a longer word ("Al" is not in "Algebra"), so that someone else's
 * text keeps its words. Case as typed: the product writes names as they were given.
 */
const wholeName = (name: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${escapeRegExp(name)}(?![\\p{L}\\p{N}\\p{M}])`, 'gu');

/** The text with the person's address, and (when `byName`) their name, given as "Deleted user". */
function withoutPerson(text: string, person: NamedPerson, byName: boolean): string {
  let result = text.replace(new RegExp(escapeRegExp(person.email), 'gi'), DELETED_USER_NAME);
  if (byName && person.name) result = result.replace(wholeName(person.name), DELETED_USER_NAME);
  return result;
}

/** An audit label that is the person (`Name <email>`, after `message report 12: ` when it names a report). */
const REPORT_PREFIX = /^(?:message|review) report \d+: /;
const relabelled = (label: string) => `${REPORT_PREFIX.exec(label)?.[0] ?? ''}${DELETED_USER_NAME}`;

/**
 * The audit log keeps what was done, by whom and to whom (their ids) and when; the words that named
 * the person give way to "Deleted user": a label that is them, whole; their name in the entries
 * about them or their lessons; their address in any entry. The database allows this one change to
 * an entry, and only while the transaction names an account it has marked deleted (migration 0024).
 */
export async function eraseFromAuditLog(trx: Transaction<DB>, person: NamedPerson): Promise<void> {
  const theirLessons = trx
    .selectFrom('lessons')
    .select('id')
    .where((eb) => eb.or([eb('tutor_id', '=', person.id), eb('student_id', '=', person.id)]));
  const rows = await trx
    .selectFrom('audit_log')
    .select(['id', 'actor_id', 'actor', 'target_id', 'target', 'reason'])
    .where((eb) =>
      eb.or([
        eb('actor_id', '=', person.id),
        eb('target_id', '=', person.id),
        eb('target_id', 'in', theirLessons),
        sql<boolean>`strpos(lower(actor || ' ' || target || ' ' || reason), ${person.email}) > 0`,
      ]),
    )
    .execute();
  if (rows.length === 0) return;
  await sql`select set_config('tutorlane.erasing_account', ${person.id}, true)`.execute(trx);
  for (const row of rows) {
    const actor = row.actor_id === person.id ? DELETED_USER_NAME : withoutPerson(row.actor, person, false);
    const target =
      row.target_id === person.id ? relabelled(row.target) : withoutPerson(row.target, person, true);
    const reason = withoutPerson(row.reason, person, true);
    if (actor === row.actor && target === row.target && reason === row.reason) continue;
    await trx.updateTable('audit_log').set({ actor, target, reason }).where('id', '=', row.id).execute();
  }
}

/**
 * A mail's texts that can name someone; a calendar's folded lines joined again; and the facts a
 * mail queued by its template is written from (its texts are empty until it is delivered).
 */
const mailText = sql<string>`subject || ' ' || text_body || ' ' || html_body || ' ' || coalesce(reply_to, '') || ' ' || regexp_replace(coalesce(calendar, ''), '\r\n[ \t]', '', 'g') || ' ' || coalesce(params, '')`;

/** Every text in a templated mail's facts, with `replace` applied. */
function replacedIn(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((item) => replacedIn(item, replace));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replacedIn(item, replace)]));
  return value;
}

/**
 * The outbox: a mail to them or naming their address (as written, or as HTML writes it) is
 * deleted, waiting or sent; so is a sent mail that names them, a copy nobody needs (its
 * recipient has the mail). A mail still waiting to go to someone else keeps going, their name in
 * it replaced by "Deleted user"; one whose calendar invitation names them is deleted. A mail still
 * waiting to be written by its template has the name replaced in its facts, so what is written
 * (its invitation too) says "Deleted user". With
 * `namedOnlyTo`, their name is looked for only in the mails to those addresses (lower case).
 */
export async function eraseFromOutbox(
  trx: Transaction<DB>,
  person: NamedPerson,
  placeholder: string,
  namedOnlyTo?: string[],
): Promise<void> {
  const addresses = [...new Set([person.email, escapeHtml(person.email).toLowerCase()])];
  await trx
    .deleteFrom('mail_outbox')
    .where((eb) =>
      eb.or([
        sql<boolean>`lower(recipient) = ${person.email}`,
        eb('recipient', '=', placeholder),
        ...addresses.map((address) => sql<boolean>`strpos(lower(${mailText}), ${address}) > 0`),
      ]),
    )
    .execute();
  if (!person.name || namedOnlyTo?.length === 0) return;
  const names = [...new Set([person.name, escapeHtml(person.name)])];
  // As JSON writes it in a templated mail's facts.
  const searched = [...new Set([...names, JSON.stringify(person.name).slice(1, -1)])];
  const naming = await trx
    .selectFrom('mail_outbox')
    .select(['id', 'sent_at', 'subject', 'text_body', 'html_body', 'calendar', 'template', 'params'])
    .where((eb) => eb.or(searched.map((name) => sql<boolean>`strpos(${mailText}, ${name}) > 0`)))
    .$if(namedOnlyTo !== undefined, (qb) => qb.where(sql<string>`lower(recipient)`, 'in', namedOnlyTo ?? []))
    .execute();
  const gone: number[] = [];
  const replaced = (text: string) =>
    names.reduce((result, name) => result.replace(wholeName(name), DELETED_USER_NAME), text);
  for (const mail of naming) {
    if (mail.template !== null && mail.params !== null) {
      const params = JSON.stringify(replacedIn(JSON.parse(mail.params), replaced));
      if (params !== mail.params)
        await trx.updateTable('mail_outbox').set({ params }).where('id', '=', mail.id).execute();
      continue;
    }
    const named = (text: string | null) => names.some((name) => text !== null && wholeName(name).test(text));
    const unfolded = mail.calendar?.replace(/\r\n[ \t]/g, '') ?? null;
    if (![mail.subject, mail.text_body, mail.html_body, unfolded].some(named)) continue;
    if (mail.sent_at !== null || named(unfolded)) {
      gone.push(mail.id);
      continue;
    }
    await trx
      .updateTable('mail_outbox')
      .set({
        subject: replaced(mail.subject),
        text_body: replaced(mail.text_body),
        html_body: replaced(mail.html_body),
      })
      .where('id', '=', mail.id)
      .execute();
  }
  if (gone.length > 0) await trx.deleteFrom('mail_outbox').where('id', 'in', gone).execute();
}
