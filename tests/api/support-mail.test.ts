/**
 * Mail about support conversations left unread, on both stores, in a database of its own (every
 * admin is mailed about every support conversation, so other tests' would crowd the mailbox): the
 * admins who take these mails hear that a person wrote to Support, once until one of them reads or
 * answers; the person hears that Support answered, never which admin did.
 */
import { describe, expect, it } from 'vitest';
import { grantAdmin } from '../../src/server/admin/admins';
import { mailUnread } from '../../src/server/messages/unread-mail';
import { send, verifiedPerson } from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest();

type Person = Awaited<ReturnType<typeof verifiedPerson>>;
const person = (name: string) => verifiedPerson(t, mailbox, 'student', name);
async function admin(name: string): Promise<Person> {
  const who = await person(name);
  expect((await grantAdmin(t.database.db, who.email)).changed).toBe(true);
  return who;
}
const write = (who: Person, id: string, text: string) =>
  send(t, 'POST', `/api/conversations/${id}/messages`, { text }, who.jar);

describe('mail when away', () => {
  it('mails the admins about a person’s message left unread, and the person about Support’s answer', async () => {
    const [ada, quiet, student] = await Promise.all([
      admin('Ada Admin'),
      admin('Quiet Admin'),
      person('Mel Student'),
    ]);
    expect((await send(t, 'PATCH', '/api/profile/details', { messageMails: false }, quiet.jar)).status).toBe(
      200,
    );
    const id = (await (await send(t, 'POST', '/api/support/conversation', {}, student.jar)).json())
      .conversationId as string;
    const deps = { db: t.database.db, mailer: t.mailer, appUrl: TEST_APP_URL };
    const minutes = (n: number) => Date.now() + n * 60_000;
    const about = (address: string, subject: string) =>
      mailbox.mailsTo(address).filter((mail) => mail.subject === subject);
    const toSupport = `${student.name} wrote to Support on Tutorlane`;

    expect((await write(student, id, 'My payment failed')).status).toBe(201);
    await mailUnread(deps, minutes(9));
    await t.mailer.deliverDue();
    expect(about(ada.email, toSupport)).toHaveLength(0);
    await Promise.all([mailUnread(deps, minutes(11)), mailUnread(deps, minutes(11))]);
    const mail = await mailbox.waitFor((m) => m.to === ada.email && m.subject === toSupport);
    expect(mail.text).toContain(`${student.name} sent Support a message on Tutorlane`);
    expect(mail.text).toContain('My payment failed');
    expect(mail.text).toContain(`${TEST_APP_URL}/messages/${id}`);
    await mailUnread(deps, minutes(20));
    await t.mailer.deliverDue();
    expect(about(ada.email, toSupport)).toHaveLength(1);
    expect(about(quiet.email, toSupport)).toHaveLength(0);

    // Support answers; the person, away, is told Support wrote, and not who.
    expect((await write(ada, id, 'Please try your card again')).status).toBe(201);
    await mailUnread(deps, minutes(30));
    const told = await mailbox.waitFor(
      (m) => m.to === student.email && m.subject.includes('sent you a message'),
    );
    expect(told.subject).toBe('Support sent you a message on Tutorlane');
    expect(told.text).toContain('Please try your card again');
    expect(told.text).not.toContain(ada.name);
    expect(told.html).not.toContain(ada.name);

    // Answered, support's side may be mailed again about what the person writes next.
    expect((await write(student, id, 'It worked, thank you')).status).toBe(201);
    await mailUnread(deps, minutes(45));
    await mailbox.waitFor(() => about(ada.email, toSupport).length === 2);
  });
});
