/**
 * What a family does (docs/decisions/0036-families.md): a parent adds children, invites one of 13
 * or older to a login of their own, sets a monthly limit for one who has a login, and removes a
 * child; a student invites a parent; the person invited accepts from the mailed link. Each change
 * is one transaction; the races that matter (a parent's eleventh child, a student linked to two
 * parents, a link used twice) are settled by row locks and the database's unique indexes.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/constants';
import {
  ageOf,
  type ChildView,
  FAMILY_INVITATION_DAYS,
  MAX_CHILDREN,
  OWN_LOGIN_AGE,
} from '../../shared/family/family-constants';
import * as messages from '../../shared/messages';
import { familyInvitationPath } from '../../shared/routes';
import { type Unlinked, unlinkStudent } from '../account-data/family-unlink';
import { isCommonPassword } from '../accounts/password-policy';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type LessonDeps, type Lines, pushLines } from '../lessons/lesson-announcements';
import { mailLanguage } from '../mail/mail-language';
import { familyPayerMessages, ownChild } from '../money/family-payer';
import { childAddress, familyMessages, familyOf } from '../platform/family-links';
import { childLoginInvitationMail, parentInvitationMail } from './family-mail';

const DAY = 24 * 60 * 60 * 1000;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type FamilyDeps = LessonDeps & {
  /** Gives a child the login they accepted: a credential with this password hash. */
  createLogin(userId: string, password: string): Promise<void>;
};

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

const childOf = async (
  db: Kysely<DB>,
  parentId: string,
  childId: string,
  now: number,
): Promise<ChildView> => {
  const { children } = await familyOf(db, parentId, now);
  const child = children.find((one) => one.id === childId);
  if (!child) throw new ApiError(404, familyPayerMessages.childNotFound, 'NOT_FOUND');
  return child;
};

/** A parent adds a child: a student without a login, in the parent's zone and language. */
export async function addChild(
  db: Kysely<DB>,
  parentId: string,
  input: { firstName: string; birthYear: number },
  now: number,
): Promise<ChildView> {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    // The parent's row is the lock two additions at once queue on: the eleventh is refused.
    const parent = await trx
      .selectFrom('users')
      .select(['time_zone', 'language'])
      .where('id', '=', parentId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const added = await trx
      .selectFrom('family_links as f')
      .innerJoin('users as u', 'u.id', 'f.student_id')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('f.parent_id', '=', parentId)
      .where('f.added_by_parent', '=', true)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(added.count) >= MAX_CHILDREN)
      throw new ApiError(409, familyMessages.tooManyChildren, 'TOO_MANY_CHILDREN');
    await trx
      .insertInto('users')
      .values({
        id,
        display_name: input.firstName,
        email: childAddress(id),
        email_verified: false,
        role: 'student',
        birth_year: input.birthYear,
        time_zone: parent.time_zone,
        language: parent.language,
        // Nobody reads the placeholder address: no message mail or reminder goes to it.
        message_mails: false,
        reminder_day_before: false,
        reminder_hour_before: false,
        created_at: new Date(now),
        updated_at: new Date(now),
      })
      .execute();
    await trx
      .insertInto('family_links')
      .values({ parent_id: parentId, student_id: id, added_by_parent: true, created_at: new Date(now) })
      .execute();
  });
  return childOf(db, parentId, id, now);
}

/** Removes a child, or unlinks a student who invited the parent: what the parent paid for ahead goes back. */
export async function removeChild(
  deps: LessonDeps,
  parentId: string,
  childId: string,
  now: number,
): Promise<Unlinked> {
  const lines: Lines = [];
  const done = await deps.db.transaction().execute(async (trx) => {
    await ownChild(trx, parentId, childId);
    return unlinkStudent(deps, trx, lines, { parentId, studentId: childId }, { actorId: parentId, now });
  });
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  return done;
}

/** A monthly limit on what a child with a login spends of the parent's wallet (null: none). */
export async function setMonthlyLimit(
  db: Kysely<DB>,
  parentId: string,
  childId: string,
  monthlyLimitCents: number | null,
  now: number,
): Promise<ChildView> {
  const child = await ownChild(db, parentId, childId);
  if (!child.has_login)
    throw new ApiError(400, familyMessages.noLogin, 'VALIDATION_ERROR', { field: 'monthlyLimitCents' });
  await db
    .updateTable('family_links')
    .set({ monthly_limit_cents: monthlyLimitCents })
    .where('parent_id', '=', parentId)
    .where('student_id', '=', childId)
    .execute();
  return childOf(db, parentId, childId, now);
}

async function emailTaken(db: Kysely<DB> | Transaction<DB>, email: string, exceptId?: string) {
  const found = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId ?? ''))
    .executeTakeFirst();
  return found !== undefined;
}

async function issueInvitation(
  trx: Transaction<DB>,
  invitation: { kind: 'child_login' | 'parent'; parentId: string | null; studentId: string; email: string },
  now: number,
) {
  const token = randomBytes(32).toString('base64url');
  // A new invitation replaces the ones before it, so only the latest link works.
  await trx
    .deleteFrom('family_invitations')
    .where('student_id', '=', invitation.studentId)
    .where('kind', '=', invitation.kind)
    .where('used_at', 'is', null)
    .execute();
  await trx
    .insertInto('family_invitations')
    .values({
      token_hash: hashToken(token),
      kind: invitation.kind,
      parent_id: invitation.parentId,
      student_id: invitation.studentId,
      email: invitation.email,
      expires_at: new Date(now + FAMILY_INVITATION_DAYS * DAY),
      created_at: new Date(now),
    })
    .execute();
  return token;
}

const senderOf = (trx: Transaction<DB>, id: string) =>
  trx.selectFrom('users').select(['display_name', 'language']).where('id', '=', id).executeTakeFirstOrThrow();

/** A parent invites their child of 13 or older to a login of their own. */
export async function inviteChild(
  deps: LessonDeps,
  parentId: string,
  childId: string,
  email: string,
  now: number,
): Promise<ChildView> {
  await deps.db.transaction().execute(async (trx) => {
    const child = await ownChild(trx, parentId, childId);
    if (child.has_login) throw new ApiError(409, familyMessages.hasLogin, 'HAS_LOGIN');
    if (child.birth_year === null || ageOf(child.birth_year, new Date(now)) < OWN_LOGIN_AGE)
      throw new ApiError(409, familyMessages.tooYoung, 'TOO_YOUNG');
    if (await emailTaken(trx, email)) throw new ApiError(409, familyMessages.emailTaken, 'EMAIL_TAKEN');
    const token = await issueInvitation(
      trx,
      { kind: 'child_login', parentId, studentId: childId, email },
      now,
    );
    const parent = await senderOf(trx, parentId);
    const content = childLoginInvitationMail({
      language: mailLanguage(parent.language, deps.mail.defaultLanguage),
      firstName: child.display_name,
      parentName: parent.display_name,
      link: deps.mail.appUrl + familyInvitationPath(token),
    });
    await deps.mailer.sendMail({ to: email, ...content }, trx);
  });
  deps.mailer.deliverSoon();
  return childOf(deps.db, parentId, childId, now);
}

/** A student (of 13 or older, as they say) invites a parent to pay for them. */
export async function inviteParent(deps: LessonDeps, studentId: string, email: string, now: number) {
  await deps.db.transaction().execute(async (trx) => {
    const linked = await trx
      .selectFrom('family_links')
      .select('parent_id')
      .where('student_id', '=', studentId)
      .executeTakeFirst();
    if (linked) throw new ApiError(409, familyMessages.alreadyLinked, 'ALREADY_LINKED');
    const token = await issueInvitation(trx, { kind: 'parent', parentId: null, studentId, email }, now);
    const student = await senderOf(trx, studentId);
    const content = parentInvitationMail({
      language: mailLanguage(student.language, deps.mail.defaultLanguage),
      studentName: student.display_name,
      link: deps.mail.appUrl + familyInvitationPath(token),
    });
    await deps.mailer.sendMail({ to: email, ...content }, trx);
  });
  deps.mailer.deliverSoon();
}

/** An invitation as its link's page shows it, before it is accepted. */
export async function readInvitation(db: Kysely<DB>, token: string, now: number) {
  const row = await db
    .selectFrom('family_invitations as i')
    .innerJoin('users as s', 's.id', 'i.student_id')
    .leftJoin('users as p', 'p.id', 'i.parent_id')
    .select([
      'i.kind',
      'i.email',
      'i.expires_at',
      'i.used_at',
      's.display_name as student_name',
      'p.display_name as parent_name',
    ])
    .where('i.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) throw new ApiError(404, familyMessages.invitationUnknown, 'NOT_FOUND');
  if (row.used_at !== null) throw new ApiError(409, familyMessages.invitationUsed, 'INVITATION_USED');
  if (row.expires_at.getTime() <= now)
    throw new ApiError(410, familyMessages.invitationExpired, 'INVITATION_EXPIRED');
  return row.kind === 'child_login'
    ? { kind: row.kind, firstName: row.student_name, inviterName: row.parent_name ?? '', email: row.email }
    : { kind: row.kind, inviterName: row.student_name, email: row.email };
}

async function checkNewPassword(password: string | undefined): Promise<string> {
  if (!password)
    throw new ApiError(400, familyMessages.passwordNeeded, 'VALIDATION_ERROR', { field: 'password' });
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new ApiError(400, messages.passwordTooShort, 'PASSWORD_TOO_SHORT', { field: 'password' });
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new ApiError(400, messages.passwordTooLong, 'PASSWORD_TOO_LONG', { field: 'password' });
  if (await isCommonPassword(password))
    throw new ApiError(400, messages.passwordTooCommon, 'PASSWORD_TOO_COMMON', { field: 'password' });
  return password;
}

/**
 * Accepts an invitation from its link. A child's: with the password they chose, their account
 * takes the invited address (verified: the link proves it) and a login. A parent's: the signed-in
 * parent is linked to the student who invited them, and pays for them from then on.
 */
export async function acceptInvitation(
  deps: FamilyDeps,
  token: string,
  user: { id: string; role: string } | null,
  password: string | undefined,
  now: number,
): Promise<{ kind: 'child_login' | 'parent'; email: string }> {
  const invitation = await readInvitation(deps.db, token, now);
  const chosen = invitation.kind === 'child_login' ? await checkNewPassword(password) : undefined;
  if (invitation.kind === 'parent' && user?.role !== 'parent')
    throw new ApiError(403, familyMessages.acceptAsParent, 'PARENT_REQUIRED');
  const accepted = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('family_invitations')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new ApiError(404, familyMessages.invitationUnknown, 'NOT_FOUND');
    // Two clicks at once: the second waits on the row lock and finds it used.
    if (row.used_at !== null) throw new ApiError(409, familyMessages.invitationUsed, 'INVITATION_USED');
    await trx
      .updateTable('family_invitations')
      .set({ used_at: new Date(now) })
      .where('token_hash', '=', row.token_hash)
      .execute();
    if (row.kind === 'parent') {
      if (!user || user.id === row.student_id)
        throw new ApiError(409, familyMessages.ownInvitation, 'OWN_INVITATION');
      try {
        await trx
          .insertInto('family_links')
          .values({
            parent_id: user.id,
            student_id: row.student_id,
            added_by_parent: false,
            created_at: new Date(now),
          })
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(409, familyMessages.alreadyLinked, 'ALREADY_LINKED');
        throw error;
      }
      return { kind: row.kind, email: row.email, studentId: null };
    }
    if (await emailTaken(trx, row.email, row.student_id))
      throw new ApiError(409, familyMessages.emailTaken, 'EMAIL_TAKEN');
    await trx
      .updateTable('users')
      .set({
        email: row.email,
        email_verified: true,
        // A child with a login hears of their lessons and messages as any student does.
        message_mails: true,
        reminder_day_before: true,
        reminder_hour_before: true,
        updated_at: new Date(now),
      })
      .where('id', '=', row.student_id)
      .execute();
    return { kind: row.kind, email: row.email, studentId: row.student_id };
  });
  // The password is hashed outside the transaction (it takes a while); a child whose login
  // failed to be written keeps the address and can ask for a password reset.
  if (accepted.studentId !== null && chosen) await deps.createLogin(accepted.studentId, chosen);
  return { kind: accepted.kind, email: accepted.email };
}
