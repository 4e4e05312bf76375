/**
 * Who a support conversation's reader sees as the sender: the person who asked sees every answer
 * from Support; admins, and everyone in any other conversation, see messages as written.
 */
import { describe, expect, it } from 'vitest';
import type { MessageView } from '../../src/server/messages/conversations';
import { seenBy } from '../../src/server/messages/support';
import { unreadMail } from '../../src/server/messages/unread-mail';
import { SUPPORT_ID } from '../../src/shared/constants';

const message = (senderId: string | null): MessageView => ({
  id: 7,
  conversationId: 'c-1',
  senderId,
  text: 'Hello',
  event: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  hidden: false,
  deleted: false,
});

describe('the sender a reader sees', () => {
  it('shows the person who asked every answer as from Support, and their own lines as theirs', () => {
    expect(seenBy('person', message('admin-1'), 'person').senderId).toBe(SUPPORT_ID);
    expect(seenBy('person', message('admin-2'), 'person').senderId).toBe(SUPPORT_ID);
    expect(seenBy('person', message('person'), 'person').senderId).toBe('person');
    expect(seenBy('person', message(null), 'person').senderId).toBeNull();
  });

  it('shows admins, and readers of other conversations, the real sender', () => {
    expect(seenBy('admin-2', message('admin-1'), 'person').senderId).toBe('admin-1');
    expect(seenBy('admin-2', message('person'), 'person').senderId).toBe('person');
    expect(seenBy('tutor', message('student'), null).senderId).toBe('student');
  });

  it('leaves the rest of the message as it was', () => {
    expect(seenBy('person', message('admin-1'), 'person')).toEqual({
      ...message('admin-1'),
      senderId: SUPPORT_ID,
    });
  });
});

describe('the unread mail about a support conversation', () => {
  const base = {
    readerName: 'Ada',
    otherName: 'Sam Student',
    unread: 2,
    preview: 'My payment failed',
    link: 'http://localhost:3000/messages/c-1',
    settingsLink: 'http://localhost:3000/profile',
  };

  it('tells an admin the person wrote to Support, not to them', () => {
    const mail = unreadMail({ ...base, toSupport: true });
    expect(mail.subject).toBe('Sam Student wrote to Support on Tutorlane');
    expect(mail.text).toContain('Sam Student sent Support 2 messages on Tutorlane:');
  });

  it('reads as before for everyone else', () => {
    const mail = unreadMail(base);
    expect(mail.subject).toBe('Sam Student sent you a message on Tutorlane');
    expect(mail.text).toContain('Sam Student sent you 2 messages on Tutorlane:');
  });
});
