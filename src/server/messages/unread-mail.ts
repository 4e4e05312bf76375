/**
 * Mail for messages left unread: when a message has waited unread ten minutes, its reader gets
 * one mail for that conversation (not one per message), unless they turned these mails off. The
 * next one waits until they have read the conversation and something new is unread again.
 *
 * In a support conversation the person is mailed that Support wrote (never which admin), and
 * support's side, which every admin reads, mails each admin who takes these mails once, until one
 * of them reads or answers it.
 *
 * In a class's group conversation each member is mailed for themselves (their own read mark and
 * flag, on conversation_members), naming the class; blocks do not reach a group.
 *
 * Safe with several servers and restarts: each mail is claimed by one UPDATE that flips the
 * side's `mailed` flag from false, in the transaction that queues the mail, so whichever server
 * gets a conversation first mails it, once.
 */

import { type Kysely, sql, type Transaction } from 'kysely';
import { DELETED_MESSAGE_TEXT } from '../../shared/account-data';
import { HIDDEN_MESSAGE_TEXT } from '../../shared/admin/admin-rules';
import { PRODUCT_NAME, SUPPORT_NAME } from '../../shared/constants';
import { type Language, SOURCE_LANGUAGE } from '../../shared/languages';
import { paths } from '../../shared/routes';
import type { DB } from '../db/schema';
import type { Logger } from '../logging/logger';
import { escapeHtml } from '../mail/html';
import { type DefaultLanguage, mailLanguage, mailWords } from '../mail/mail-language';
import { greetingOf, layout } from '../mail/mail-templates';
import type { Mailer } from '../mail/mailer';
import { type MinuteJobObserver, startMinuteJob } from '../platform/minute-job';
import { answersSupportWhere } from './support';

/** How long a message waits unread before it is mailed about. */
/** The newest unread line as a mail quotes it: never a removed message's words. */
function previewOf(line: { body: string; hidden_at: Date | null; erased_at: Date | null } | undefined) {
  if (!line) return '';
  if (line.erased_at) return DELETED_MESSAGE_TEXT;
  return line.hidden_at ? HIDDEN_MESSAGE_TEXT : line.body;
}

export const UNREAD_MAIL_DELAY_MS = 10 * 60 * 1000;
const PREVIEW_LENGTH = 200;

interface Claimed {
  id: string;
  reader_id: string;
  other_id: string;
  read_id: number;
}

/** A support conversation due on one side; `person_id` is the person who asked. */
interface ClaimedSupport {
  id: string;
  person_id: string;
  read_id: number;
}

/** Claims the conversations of one side that are due, flipping their flag in `trx`. */
async function claim(trx: Transaction<DB>, side: 'student' | 'tutor', cutoff: Date): Promise<Claimed[]> {
  const reader = sql.ref(`c.${side}_id`);
  const other = sql.ref(side === 'student' ? 'c.tutor_id' : 'c.student_id');
  const readId = sql.ref(`c.${side}_read_id`);
  const mailed = sql.raw(`${side}_mailed`);
  const { rows } = await sql<Claimed>`
    update conversations c set ${mailed} = true
    from users u
    where u.id = ${reader} and u.message_mails and not c.${mailed}
      and exists (select 1 from messages m
                   where m.conversation_id = c.id and m.sender_id = ${other}
                     and m.id > ${readId} and m.created_at <= ${cutoff})
      and not exists (select 1 from blocks b where b.blocker_id = ${reader} and b.blocked_id = ${other})
    returning c.id, ${reader} as reader_id, ${other} as other_id, ${readId} as read_id`.execute(trx);
  return rows;
}

/** The person's messages support has not read, or support's answers the person has not read. */
async function claimSupport(
  trx: Transaction<DB>,
  side: 'requester' | 'support',
  cutoff: Date,
): Promise<ClaimedSupport[]> {
  const mailed = sql.raw(`${side}_mailed`);
  const readId = sql.ref(`c.${side}_read_id`);
  const unread =
    side === 'requester'
      ? sql`m.sender_id <> c.requester_id and m.id > c.requester_read_id`
      : sql`m.sender_id = c.requester_id and m.id > c.support_read_id`;
  // The person's own choice of mails counts for their side; each admin's is read when mailing.
  const wanted =
    side === 'requester'
      ? sql`exists (select 1 from users u where u.id = c.requester_id and u.message_mails)`
      : sql`true`;
  const { rows } = await sql<ClaimedSupport>`
    update conversations c set ${mailed} = true
    where c.requester_id is not null and not c.${mailed} and ${wanted}
      and exists (select 1 from messages m
                   where m.conversation_id = c.id and ${unread} and m.created_at <= ${cutoff})
    returning c.id, c.requester_id as person_id, ${readId} as read_id`.execute(trx);
  return rows;
}

export function unreadMail(input: {
  readerName: string;
  otherName: string;
  unread: number;
  preview: string;
  link: string;
  settingsLink: string;
  /** For an admin: the person wrote to Support, not to them. */
  toSupport?: boolean;
  /** In a class's group conversation: the class's title (`otherName` wrote the latest line). */
  group?: string;
  /** The reader's language (theirs, else the school's default). */
  language?: Language;
}) {
  const language = input.language ?? SOURCE_LANGUAGE;
  const { t } = mailWords(language);
  const values = {
    name: input.otherName,
    support: SUPPORT_NAME,
    product: PRODUCT_NAME,
    count: input.unread,
    group: input.group ?? '',
  };
  const subject =
    input.group !== undefined
      ? t(/*i18n*/ 'New messages in {group} on {product}', values)
      : input.toSupport
        ? t(/*i18n*/ '{name} wrote to {support} on {product}', values)
        : t(/*i18n*/ '{name} sent you a message on {product}', values);
  const sent =
    input.group !== undefined
      ? t(
          /*i18n*/ '{count, plural, one {A message waits} other {# messages wait}} for you in {group} on {product}. The latest, from {name}:',
          values,
        )
      : input.toSupport
        ? t(
            /*i18n*/ '{name} sent {support} {count, plural, one {a message} other {# messages}} on {product}:',
            values,
          )
        : t(
            /*i18n*/ '{name} sent you {count, plural, one {a message} other {# messages}} on {product}:',
            values,
          );
  const preview =
    input.preview.length > PREVIEW_LENGTH ? `${input.preview.slice(0, PREVIEW_LENGTH)}…` : input.preview;
  const settings = t(
    /*i18n*/ 'You get this mail when a message waits unread for ten minutes. Turn these mails off on your profile: {url}',
    { url: input.settingsLink },
  );
  const answer = t(/*i18n*/ 'Read and answer');
  const greeting = greetingOf(language, input.readerName);
  return {
    subject,
    text: `${greeting}

${sent}

"${preview}"

${t(/*i18n*/ 'Read and answer: {url}', { url: input.link })}

${settings}
`,
    html: layout(
      language,
      subject,
      [escapeHtml(greeting), escapeHtml(sent), `<em>${escapeHtml(preview)}</em>`, escapeHtml(settings)],
      { label: answer, url: input.link },
    ),
  };
}

/** Queues one reader's mail about a conversation's unread lines, in their language. */
async function queueUnread(
  deps: { mailer: Mailer; appUrl: string; defaultLanguage?: DefaultLanguage },
  trx: Transaction<DB>,
  reader: { email: string; display_name: string; language: string | null },
  conversationId: string,
  said: {
    otherName: string;
    unread: { body: string; hidden_at: Date | null; erased_at: Date | null }[];
    toSupport?: boolean;
    group?: string;
  },
) {
  const { unread, ...rest } = said;
  await deps.mailer.sendMail(
    {
      to: reader.email,
      ...unreadMail({
        ...rest,
        readerName: reader.display_name,
        unread: unread.length,
        preview: previewOf(unread[0]),
        link: `${deps.appUrl}${paths.messages}/${conversationId}`,
        settingsLink: `${deps.appUrl}${paths.profile}`,
        language: mailLanguage(reader.language, deps.defaultLanguage),
      }),
    },
    trx,
  );
}

/** Mails every reader who is due, once; returns how many mails were queued. */
export async function mailUnread(
  // requireTwoFactor: ADMIN_TWO_FACTOR is required, so only admins with two-factor answer support.
  // defaultLanguage: the school's, for a reader who never chose one (English when not given).
  deps: {
    db: Kysely<DB>;
    mailer: Mailer;
    appUrl: string;
    requireTwoFactor?: boolean;
    defaultLanguage?: DefaultLanguage;
  },
  now = Date.now(),
) {
  const cutoff = new Date(now - UNREAD_MAIL_DELAY_MS);
  const sent = await deps.db.transaction().execute(async (trx) => {
    let count = 0;
    for (const side of ['student', 'tutor'] as const) {
      for (const due of await claim(trx, side, cutoff)) {
        const [reader, other, unread] = await Promise.all([
          trx
            .selectFrom('users')
            .select(['email', 'display_name', 'language'])
            .where('id', '=', due.reader_id)
            .executeTakeFirstOrThrow(),
          trx
            .selectFrom('users')
            .select('display_name')
            .where('id', '=', due.other_id)
            .executeTakeFirstOrThrow(),
          trx
            .selectFrom('messages')
            .select(['body', 'hidden_at', 'erased_at'])
            .where('conversation_id', '=', due.id)
            .where('sender_id', '=', due.other_id)
            .where('id', '>', due.read_id)
            .orderBy('id', 'desc')
            .execute(),
        ]);
        await queueUnread(deps, trx, reader, due.id, { otherName: other.display_name, unread });
        count += 1;
      }
    }
    count += await mailSupportSides(deps, trx, cutoff);
    count += await mailClassMembers(deps, trx, cutoff);
    return count;
  });
  if (sent > 0) deps.mailer.deliverSoon();
  return sent;
}

/** A conversation's unread lines for one side: the newest first, for the count and the preview. */
async function unreadLines(trx: Transaction<DB>, due: ClaimedSupport, side: 'requester' | 'support') {
  let query = trx
    .selectFrom('messages')
    .select(['body', 'hidden_at', 'erased_at'])
    .where('conversation_id', '=', due.id)
    .where('id', '>', due.read_id);
  query =
    side === 'requester'
      ? query.where('sender_id', '<>', due.person_id)
      : query.where('sender_id', '=', due.person_id);
  return query.orderBy('id', 'desc').execute();
}

/** Mails both sides of support conversations that are due; returns how many mails were queued. */
async function mailSupportSides(
  deps: { mailer: Mailer; appUrl: string; requireTwoFactor?: boolean; defaultLanguage?: DefaultLanguage },
  trx: Transaction<DB>,
  cutoff: Date,
): Promise<number> {
  let count = 0;
  const mail = async (
    to: { email: string; display_name: string; language: string | null },
    due: ClaimedSupport,
    otherName: string,
    unread: { body: string; hidden_at: Date | null; erased_at: Date | null }[],
    toSupport: boolean,
  ) => {
    await queueUnread(deps, trx, to, due.id, { otherName, unread, toSupport });
    count += 1;
  };
  for (const due of await claimSupport(trx, 'requester', cutoff)) {
    const [person, unread] = await Promise.all([
      trx
        .selectFrom('users')
        .select(['email', 'display_name', 'language'])
        .where('id', '=', due.person_id)
        .executeTakeFirstOrThrow(),
      unreadLines(trx, due, 'requester'),
    ]);
    // Support writes as one team: the mail names no admin.
    await mail(person, due, SUPPORT_NAME, unread, false);
  }
  for (const due of await claimSupport(trx, 'support', cutoff)) {
    const [person, admins, unread] = await Promise.all([
      trx
        .selectFrom('users')
        .select('display_name')
        .where('id', '=', due.person_id)
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('users')
        .select(['email', 'display_name', 'language'])
        .where(answersSupportWhere(deps.requireTwoFactor === true))
        .where('message_mails', '=', true)
        .where('id', '<>', due.person_id)
        .execute(),
      unreadLines(trx, due, 'support'),
    ]);
    for (const admin of admins) await mail(admin, due, person.display_name, unread, true);
  }
  return count;
}

/** Claims the class members who are due (something from the others waits unread), flipping their flag. */
async function claimMembers(trx: Transaction<DB>, cutoff: Date) {
  const { rows } = await sql<{ id: string; reader_id: string; read_id: number }>`
    update conversation_members cm set mailed = true
    from users u
    where u.id = cm.user_id and u.message_mails and not cm.mailed and cm.left_at is null
      and exists (select 1 from messages m
                   where m.conversation_id = cm.conversation_id and m.sender_id <> cm.user_id
                     and m.id > cm.read_id and m.created_at <= ${cutoff})
    returning cm.conversation_id as id, cm.user_id as reader_id, cm.read_id`.execute(trx);
  return rows;
}

/** Mails each class member who is due, naming the class; returns how many mails were queued. */
async function mailClassMembers(
  deps: { mailer: Mailer; appUrl: string; defaultLanguage?: DefaultLanguage },
  trx: Transaction<DB>,
  cutoff: Date,
): Promise<number> {
  let count = 0;
  for (const due of await claimMembers(trx, cutoff)) {
    const [reader, group, unread] = await Promise.all([
      trx
        .selectFrom('users')
        .select(['email', 'display_name', 'language'])
        .where('id', '=', due.reader_id)
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('conversations')
        .innerJoin('classes', 'classes.id', 'conversations.class_id')
        .select('classes.title')
        .where('conversations.id', '=', due.id)
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('messages')
        .innerJoin('users', 'users.id', 'messages.sender_id')
        .select(['messages.body', 'messages.hidden_at', 'messages.erased_at', 'users.display_name'])
        .where('messages.conversation_id', '=', due.id)
        .where('messages.sender_id', '<>', due.reader_id)
        .where('messages.id', '>', due.read_id)
        .orderBy('messages.id', 'desc')
        .execute(),
    ]);
    await queueUnread(deps, trx, reader, due.id, {
      otherName: unread[0]?.display_name ?? '',
      group: group.title,
      unread,
    });
    count += 1;
  }
  return count;
}

/** Every minute, and once a second after start for what fell due while the server was down. */
export const startUnreadMail = (
  deps: Parameters<typeof mailUnread>[0],
  logger: Logger,
  everyMs?: number,
  observe?: MinuteJobObserver,
) =>
  startMinuteJob(
    {
      run: () => mailUnread(deps),
      done: (sent, log) => {
        if (sent) log.info({ sent }, 'unread message mails queued');
      },
      failure: 'unread message mails failed',
      name: 'unread-mail',
    },
    logger,
    everyMs,
    observe,
  );
