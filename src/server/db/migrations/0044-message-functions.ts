/**
 * Writing a message, as two PL/pgSQL functions (decision 0046). A send is the busiest write there
 * is, and a statement this size spent twice as long being parsed and planned as being run: a
 * function's statements are parsed and planned once per connection and kept, so a send costs the
 * database about half of what the same statement sent as text did.
 *
 * append_message adds a message to a conversation the caller has locked, and moves what a message
 * moves: the conversation's activity, and the sender's own read mark on their side (writing means
 * having read it), which also lets their next unread message be mailed. An admin answering a
 * support conversation someone else asked moves support's shared mark; a class's member moves
 * their member row. A line a lesson writes has no sender and moves no mark.
 *
 * send_message is a person's message: it finds the conversation among the sender's (their pair,
 * the support conversation they asked or, for an admin answering support, any; a class's while
 * they are in it), locks it, looks for a block either way between a pair's two people, and only
 * when there is none appends the message. It answers the conversation's parties and the block
 * flags in every case, the message's columns only when one was added, and no row when the
 * conversation is not the sender's.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function append_message(p_conversation text, p_sender text, p_body text, p_event jsonb)
    returns setof messages language plpgsql as $$
    declare
      m messages;
    begin
      insert into messages (conversation_id, sender_id, body, event)
        values (p_conversation, p_sender, p_body, p_event)
        returning * into m;
      update conversations c set
        last_message_id = m.id,
        last_activity_at = m.created_at,
        student_read_id = case when c.requester_id is null and c.student_id = p_sender then m.id else c.student_read_id end,
        tutor_read_id = case when c.requester_id is null and c.tutor_id = p_sender then m.id else c.tutor_read_id end,
        requester_read_id = case when c.requester_id = p_sender then m.id else c.requester_read_id end,
        support_read_id = case when c.requester_id <> p_sender then m.id else c.support_read_id end,
        student_mailed = case when c.requester_id is null and c.student_id = p_sender then false else c.student_mailed end,
        tutor_mailed = case when c.requester_id is null and c.tutor_id = p_sender then false else c.tutor_mailed end,
        requester_mailed = case when c.requester_id = p_sender then false else c.requester_mailed end,
        support_mailed = case when c.requester_id <> p_sender then false else c.support_mailed end
      where c.id = p_conversation;
      update conversation_members cm set read_id = m.id, mailed = false
      where cm.conversation_id = p_conversation and cm.user_id = p_sender;
      return next m;
    end $$`.execute(db);

  await sql`create function send_message(p_conversation text, p_sender text, p_answers_support boolean, p_body text)
    returns table (
      id text, student_id text, tutor_id text, requester_id text, class_id text, is_member boolean,
      blocked_me boolean, i_blocked boolean,
      m_id bigint, m_conversation_id text, m_sender_id text, m_body text, m_event jsonb,
      m_created_at timestamptz, m_hidden_at timestamptz
    ) language plpgsql as $$
    #variable_conflict use_column
    declare
      c record;
      other text;
      m messages;
    begin
      select cv.id, cv.student_id, cv.tutor_id, cv.requester_id, cv.class_id,
             exists (select 1 from conversation_members cm
                     where cm.conversation_id = cv.id and cm.user_id = p_sender and cm.left_at is null) as is_member
        into c
        from conversations cv
        where cv.id = p_conversation
          and (cv.student_id = p_sender or cv.tutor_id = p_sender or cv.requester_id = p_sender
               or (p_answers_support and cv.requester_id is not null)
               or exists (select 1 from conversation_members cm
                          where cm.conversation_id = cv.id and cm.user_id = p_sender and cm.left_at is null))
        for update of cv;
      if not found then
        return;
      end if;
      -- Blocks are between a pair's two people: not in support's conversations, nor in a class's.
      if c.requester_id is null and c.class_id is null then
        other := case when c.student_id = p_sender then c.tutor_id else c.student_id end;
        blocked_me := exists (select 1 from blocks b where b.blocker_id = other and b.blocked_id = p_sender);
        i_blocked := exists (select 1 from blocks b where b.blocker_id = p_sender and b.blocked_id = other);
      else
        blocked_me := false;
        i_blocked := false;
      end if;
      if not blocked_me and not i_blocked then
        select * into m from append_message(c.id, p_sender, p_body, null);
      end if;
      id := c.id; student_id := c.student_id; tutor_id := c.tutor_id; requester_id := c.requester_id;
      class_id := c.class_id; is_member := c.is_member;
      m_id := m.id; m_conversation_id := m.conversation_id; m_sender_id := m.sender_id; m_body := m.body;
      m_event := m.event; m_created_at := m.created_at; m_hidden_at := m.hidden_at;
      return next;
    end $$`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
