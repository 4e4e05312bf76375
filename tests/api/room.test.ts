/**
 * The lesson room over the API: only a confirmed lesson's tutor and student reach it, only from
 * 10 minutes before the start to 30 minutes after the end; signals and chat lines reach the other
 * participant's live channel and nobody else's; joining is recorded; a student who never came can
 * be marked a no-show by the tutor after the end.
 */
import { describe, expect, it } from 'vitest';
import { get, send } from '../support/accounts';
import { type Person, person, server, setUpApiTest, t } from '../support/api-app';
import { openChannel } from '../support/live-channel';

setUpApiTest({ listen: true });

const MINUTE = 60 * 1000;

/** A lesson of a new tutor and student, starting `startsIn` from now, straight into the database. */
async function lesson(
  startsIn: number,
  status: 'confirmed' | 'cancelled' | 'pending' = 'confirmed',
  minutes = 60,
) {
  const [tutor, student] = await Promise.all([person('tutor'), person('student')]);
  const start = Date.now() + startsIn;
  const id = crypto.randomUUID();
  await t.database.db
    .insertInto('lessons')
    .values({
      id,
      tutor_id: tutor.id,
      student_id: student.id,
      subject: 'Algebra',
      note: '',
      starts_at: new Date(start),
      ends_at: new Date(start + minutes * MINUTE),
      minutes,
      blocked_until: new Date(start + minutes * MINUTE),
      price_cents: 4000,
      currency: 'USD',
      status,
      expires_at: status === 'pending' ? new Date(start) : null,
      sequence: 0,
      idempotency_key: null,
      cancelled_by: null,
      cancel_reason: null,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  return { id, tutor, student };
}

const room = (id: string, who: Person) => get(t, `/api/lessons/${id}/room`, who.jar);
const signal = (id: string, who: Person, body: unknown) =>
  send(t, 'POST', `/api/lessons/${id}/room/signal`, body, who.jar);
const hello = { peer: 'page-0001', signal: { kind: 'hello' } };

describe('who may open a room, and when', () => {
  it('answers its two participants with the room’s state, and everyone else 404', async () => {
    const { id, tutor, student } = await lesson(5 * MINUTE);
    const stranger = await person('student');
    for (const who of [tutor, student]) {
      const res = await room(id, who);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ state: 'open', you: who === tutor ? 'tutor' : 'student', iceServers: [] });
      expect(Date.parse(body.closesAt) - Date.parse(body.opensAt)).toBe((10 + 60 + 30) * MINUTE);
    }
    for (const path of ['', '/chat'])
      expect((await get(t, `/api/lessons/${id}/room${path}`, stranger.jar)).status).toBe(404);
    const bodies = { '/join': {}, '/signal': hello, '/chat': { text: 'Hello' } };
    for (const [path, body] of Object.entries(bodies))
      expect((await send(t, 'POST', `/api/lessons/${id}/room${path}`, body, stranger.jar)).status).toBe(404);
    expect((await get(t, `/api/lessons/${id}/room`)).status).toBe(401);
    expect((await get(t, '/api/lessons/not-a-lesson/room', tutor.jar)).status).toBe(404);
  });

  it('is not open yet 11 minutes before, open 10 minutes before, and ended 30 minutes after the end', async () => {
    const early = await lesson(11 * MINUTE);
    expect(await (await room(early.id, early.student)).json()).toMatchObject({ state: 'not-open' });
    const join = await send(t, 'POST', `/api/lessons/${early.id}/room/join`, {}, early.student.jar);
    expect(join.status).toBe(409);
    expect(await join.json()).toMatchObject({
      code: 'ROOM_CLOSED',
      message: 'The room is open from 10 minutes before the lesson starts until 30 minutes after it ends.',
    });
    expect((await signal(early.id, early.tutor, hello)).status).toBe(409);

    const soon = await lesson(9 * MINUTE);
    expect(await (await room(soon.id, soon.student)).json()).toMatchObject({ state: 'open' });

    // Ended 29 minutes ago: still open; 31 minutes ago: ended.
    const lingering = await lesson(-89 * MINUTE);
    expect(await (await room(lingering.id, lingering.tutor)).json()).toMatchObject({ state: 'open' });
    const over = await lesson(-91 * MINUTE);
    expect(await (await room(over.id, over.tutor)).json()).toMatchObject({ state: 'ended' });
    expect(
      (await send(t, 'POST', `/api/lessons/${over.id}/room/chat`, { text: 'late' }, over.tutor.jar)).status,
    ).toBe(409);
  });

  it('has no room for a lesson that is not confirmed', async () => {
    for (const status of ['cancelled', 'pending'] as const) {
      const { id, student } = await lesson(5 * MINUTE, status);
      const res = await room(id, student);
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'NO_ROOM' });
    }
  });
});

describe('inside the room', () => {
  it('passes signals and chat lines to the other participant only, and keeps the chat', async () => {
    const { id, tutor, student } = await lesson(2 * MINUTE);
    const other = await lesson(2 * MINUTE);
    const tutorTab = await openChannel(server.url, tutor.jar);
    const studentTab = await openChannel(server.url, student.jar);
    const strangerTab = await openChannel(server.url, other.student.jar);

    const offer = { peer: 'page-0002', signal: { kind: 'description', type: 'offer', sdp: 'v=0\r\n' } };
    expect((await signal(id, student, offer)).status).toBe(202);
    expect(await tutorTab.next((f) => f.type === 'room-signal')).toEqual({
      type: 'room-signal',
      lessonId: id,
      from: 'student',
      ...offer,
    });
    const said = await send(
      t,
      'POST',
      `/api/lessons/${id}/room/chat`,
      { text: 'Can you hear me?' },
      tutor.jar,
    );
    expect(said.status).toBe(201);
    const line = await said.json();
    expect(line).toMatchObject({ senderId: tutor.id, text: 'Can you hear me?' });
    expect(await studentTab.next((f) => f.type === 'room-chat')).toEqual({
      type: 'room-chat',
      lessonId: id,
      line,
    });
    expect((await (await get(t, `/api/lessons/${id}/room/chat`, student.jar)).json()).lines).toEqual([line]);
    // A signal naming another lesson's room cannot be sent: that room is not the sender's.
    expect((await signal(other.id, student, offer)).status).toBe(404);
    // A channel's frames arrive in the order they were sent: once a line said after the refusal has
    // reached each tab, anything the refused signal had let through would be there before it.
    const lineAfter = async (lessonId: string, who: Person, tab: typeof studentTab) => {
      const res = await send(t, 'POST', `/api/lessons/${lessonId}/room/chat`, { text: 'After' }, who.jar);
      const marker = await res.json();
      return tab.next((f) => f.type === 'room-chat' && (f.line as { id: unknown }).id === marker.id);
    };
    const strangerMarker = await lineAfter(other.id, other.tutor, strangerTab);
    await lineAfter(id, tutor, studentTab);
    expect(strangerTab.frames.filter((f) => f.type.startsWith('room') && f !== strangerMarker)).toEqual([]);
    expect(studentTab.frames.filter((f) => f.type === 'room-signal')).toEqual([]);
    for (const tab of [tutorTab, studentTab, strangerTab]) tab.socket.close();
  });

  it('refuses signals and chat lines it cannot pass on', async () => {
    const { id, student } = await lesson(2 * MINUTE);
    expect((await signal(id, student, { peer: 'page-0003', signal: { kind: 'shout' } })).status).toBe(400);
    expect((await signal(id, student, { peer: 'x', signal: { kind: 'hello' } })).status).toBe(400);
    const long = {
      peer: 'page-0003',
      signal: { kind: 'description', type: 'offer', sdp: 'x'.repeat(100_001) },
    };
    expect((await signal(id, student, long)).status).toBe(400);
    for (const text of ['', ' ', 'x'.repeat(1001), 'a\u0000b'])
      expect((await send(t, 'POST', `/api/lessons/${id}/room/chat`, { text }, student.jar)).status).toBe(400);
    const longLine = await send(
      t,
      'POST',
      `/api/lessons/${id}/room/chat`,
      { text: 'x'.repeat(1001) },
      student.jar,
    );
    expect((await longLine.json()).message).toBe('A chat line must be at most 1000 characters');
  });

  it('records who joined, and when', async () => {
    const { id, tutor, student } = await lesson(2 * MINUTE);
    expect((await (await room(id, tutor)).json()).attendance).toEqual({ tutor: null, student: null });
    const joined = await send(t, 'POST', `/api/lessons/${id}/room/join`, {}, student.jar);
    expect(joined.status).toBe(200);
    const { joinedAt } = await joined.json();
    // Joining again keeps the first time.
    await send(t, 'POST', `/api/lessons/${id}/room/join`, {}, student.jar);
    expect((await (await room(id, tutor)).json()).attendance).toEqual({ tutor: null, student: joinedAt });
  });
});

describe('no-shows', () => {
  it('lets the tutor mark a student who never joined, after the end, and nobody else', async () => {
    const ended = await lesson(-70 * MINUTE);
    const noShow = (who: Person, id = ended.id) => send(t, 'POST', `/api/lessons/${id}/no-show`, {}, who.jar);
    expect((await noShow(ended.student)).status).toBe(403);
    expect((await noShow(await person('tutor'))).status).toBe(404);
    const marked = await noShow(ended.tutor);
    expect(marked.status).toBe(200);
    expect(await marked.json()).toMatchObject({ id: ended.id, status: 'no_show' });
    // The student sees it on their lessons.
    const mine = await (await get(t, `/api/lessons/${ended.id}`, ended.student.jar)).json();
    expect(mine.status).toBe('no_show');

    const running = await lesson(-30 * MINUTE);
    const tooSoon = await noShow(running.tutor, running.id);
    expect(tooSoon.status).toBe(409);
    expect(await tooSoon.json()).toMatchObject({ code: 'NO_SHOW_REFUSED' });

    const attended = await lesson(-70 * MINUTE);
    await t.database.db
      .insertInto('lesson_attendance')
      .values({
        lesson_id: attended.id,
        user_id: attended.student.id,
        first_joined_at: new Date(Date.now() - 65 * MINUTE),
        last_joined_at: new Date(Date.now() - 65 * MINUTE),
      })
      .execute();
    expect((await noShow(attended.tutor, attended.id)).status).toBe(409);

    // Two marks sent at once: one marks the lesson, the other is refused as a second mark is.
    const twice = await lesson(-70 * MINUTE);
    const answers = await Promise.all([noShow(twice.tutor, twice.id), noShow(twice.tutor, twice.id)]);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await refused[0]?.json()).toMatchObject({ code: 'NO_SHOW_REFUSED' });
  });

  it('may be marked until 24 hours after the end, and is refused later, keeping the lesson as it was', async () => {
    const noShow = (lesson: { id: string; tutor: Person }) =>
      send(t, 'POST', `/api/lessons/${lesson.id}/no-show`, {}, lesson.tutor.jar);
    // Ended 23 hours ago: still in time.
    const yesterday = await lesson(-(23 * 60 + 60) * MINUTE);
    expect((await noShow(yesterday)).status).toBe(200);

    // Ended 10 days ago: the student may have reviewed it and the tutor written notes since.
    const long = await lesson(-(10 * 24 * 60 + 60) * MINUTE);
    const late = await noShow(long);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({
      code: 'NO_SHOW_REFUSED',
      message: 'A no-show can be marked only until 24 hours after the lesson ends.',
    });
    const still = await (await get(t, `/api/lessons/${long.id}`, long.student.jar)).json();
    expect(still.status).toBe('completed');
  });
});
