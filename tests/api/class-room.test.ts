/**
 * A class session's room over the API: only the class's tutor and the students holding a seat in
 * that session reach it (a student who left, a stranger, another tutor: 404), on the lesson room's
 * times; a page's signal reaches the page it names, or every other person in the room, and nobody
 * outside it; the chat is kept with the session; the tutor mutes a student for everyone; joining
 * is recorded against the seats.
 */
import { describe, expect, it } from 'vitest';
import { get, send } from '../support/accounts';
import { type Person, person, server, setUpApiTest, t } from '../support/api-app';
import { type Frame, openChannel } from '../support/live-channel';
import { publishTutor } from '../support/money';

setUpApiTest({ listen: true });

const MINUTE = 60 * 1000;

/**
 * A free class of a new, published tutor with one session starting `startsIn` from now, two
 * students holding a seat in it and one who enrolled and left, all through the class API. A
 * session that should have started already is made for tomorrow and moved back in the database
 * (the API takes no session in the past).
 */
async function classSession(startsIn: number, minutes = 60) {
  const tutor = await publishTutor(t, await person('tutor'));
  const [first, second, left] = await Promise.all([person('student'), person('student'), person('student')]);
  const inFuture = startsIn > MINUTE;
  const planned = Math.ceil((Date.now() + (inFuture ? startsIn : 24 * 60 * MINUTE)) / 1000) * 1000;
  const made = await send(
    t,
    'POST',
    '/api/classes',
    {
      title: 'Conversation circle',
      subject: 'Algebra',
      language: 'English',
      description: 'Talking it through.',
      minutes,
      seats: 3,
      minStudents: 1,
      priceCents: 0,
      sessions: [new Date(planned).toISOString()],
    },
    tutor.jar,
  );
  expect(made.status, await made.clone().text()).toBe(201);
  const created = (await made.json()) as { class: { id: string; sessions: { id: string }[] } };
  const classId = created.class.id;
  const sessionId = created.class.sessions[0]?.id ?? '';
  for (const who of [first, second, left]) {
    const enrolled = await send(t, 'POST', `/api/classes/${classId}/enrol`, {}, who.jar);
    expect(enrolled.status, await enrolled.clone().text()).toBe(201);
  }
  const gone = await send(t, 'POST', `/api/classes/${classId}/leave`, {}, left.jar);
  expect(gone.status, await gone.clone().text()).toBe(200);
  if (!inFuture) {
    const start = new Date(Date.now() + startsIn);
    const end = new Date(start.getTime() + minutes * MINUTE);
    const moved = { starts_at: start, ends_at: end, blocked_until: end };
    await t.database.db.updateTable('class_sessions').set(moved).where('id', '=', sessionId).execute();
    await t.database.db.updateTable('lessons').set(moved).where('class_session_id', '=', sessionId).execute();
  }
  const seatRows = await t.database.db
    .selectFrom('lessons')
    .select(['id', 'student_id'])
    .where('class_session_id', '=', sessionId)
    .where('status', '=', 'confirmed')
    .execute();
  const seats = Object.fromEntries(seatRows.map((row) => [row.student_id, row.id]));
  const base = `/api/classes/${classId}/sessions/${sessionId}/room`;
  return { classId, sessionId, base, tutor, first, second, left, seats };
}

const signal = (base: string, who: Person, body: unknown) => send(t, 'POST', `${base}/signal`, body, who.jar);

describe('who may open a class session’s room, and when', () => {
  it('answers the tutor and the seat holders, and 404 to a student who left, a stranger and another tutor', async () => {
    const { base, tutor, first, second, left, classId } = await classSession(5 * MINUTE);
    for (const who of [tutor, first, second]) {
      const res = await get(t, base, who.jar);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({
        state: 'open',
        you: who === tutor ? 'tutor' : 'student',
        class: { id: classId, title: 'Conversation circle', subject: 'Algebra' },
        iceServers: [],
      });
      expect(body.people).toEqual([
        { id: tutor.id, displayName: tutor.name, role: 'tutor', joinedAt: null },
        { id: first.id, displayName: first.name, role: 'student', joinedAt: null },
        { id: second.id, displayName: second.name, role: 'student', joinedAt: null },
      ]);
      expect(Date.parse(body.closesAt) - Date.parse(body.opensAt)).toBe((10 + 60 + 30) * MINUTE);
    }
    const outsiders = [left, await person('student'), await person('tutor')];
    const bodies = {
      '/join': {},
      '/signal': { peer: 'page-0001', signal: { kind: 'hello' } },
      '/chat': { text: 'Hi' },
    };
    for (const who of outsiders) {
      for (const path of ['', '/chat']) expect((await get(t, `${base}${path}`, who.jar)).status).toBe(404);
      for (const [path, body] of Object.entries(bodies))
        expect((await send(t, 'POST', `${base}${path}`, body, who.jar)).status).toBe(404);
    }
    const res = await get(t, base, left.jar);
    expect(await res.json()).toMatchObject({
      code: 'NOT_FOUND',
      message: 'This class session does not exist',
    });
    expect((await get(t, base)).status).toBe(401);
    // The session under another class's id, or no such session at all.
    const other = await classSession(5 * MINUTE);
    expect((await get(t, base.replace(classId, other.classId), tutor.jar)).status).toBe(404);
    expect((await get(t, `/api/classes/${classId}/sessions/nothing/room`, tutor.jar)).status).toBe(404);
    expect((await get(t, `/api/classes/${classId}/sessions/not%20an%20id/room`, tutor.jar)).status).toBe(404);
  });

  it('is not open yet 11 minutes before, open 10 minutes before, and ended 30 minutes after the end', async () => {
    const early = await classSession(11 * MINUTE);
    expect(await (await get(t, early.base, early.first.jar)).json()).toMatchObject({ state: 'not-open' });
    const join = await send(t, 'POST', `${early.base}/join`, {}, early.first.jar);
    expect(join.status).toBe(409);
    expect(await join.json()).toMatchObject({
      code: 'ROOM_CLOSED',
      message: 'The room is open from 10 minutes before the session starts until 30 minutes after it ends.',
    });
    expect(
      (await signal(early.base, early.tutor, { peer: 'page-0001', signal: { kind: 'hello' } })).status,
    ).toBe(409);
    const soon = await classSession(9 * MINUTE);
    expect(await (await get(t, soon.base, soon.second.jar)).json()).toMatchObject({ state: 'open' });
    const lingering = await classSession(-89 * MINUTE);
    expect(await (await get(t, lingering.base, lingering.tutor.jar)).json()).toMatchObject({ state: 'open' });
    const over = await classSession(-91 * MINUTE);
    expect(await (await get(t, over.base, over.tutor.jar)).json()).toMatchObject({ state: 'ended' });
    expect((await send(t, 'POST', `${over.base}/chat`, { text: 'late' }, over.first.jar)).status).toBe(409);
  });

  it('has no room once the class is cancelled: the tutor is told why, the students hold no seat', async () => {
    const { base, classId, tutor, first } = await classSession(5 * MINUTE);
    const cancelled = await send(
      t,
      'POST',
      `/api/classes/${classId}/cancel`,
      { reason: 'I am unwell' },
      tutor.jar,
    );
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    const res = await get(t, base, tutor.jar);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      code: 'NO_ROOM',
      message: 'This class session was cancelled, so it has no room.',
    });
    expect((await get(t, base, first.jar)).status).toBe(404);
  });
});

describe('inside the room: a mesh of three', () => {
  it('passes a page’s signals to the page it names, or to everyone else in the room, and to nobody outside', async () => {
    const room = await classSession(2 * MINUTE);
    const other = await classSession(2 * MINUTE);
    const tutorTab = await openChannel(server.url, room.tutor.jar);
    const firstTab = await openChannel(server.url, room.first.jar);
    const secondTab = await openChannel(server.url, room.second.jar);
    const strangerTab = await openChannel(server.url, other.first.jar);
    const signals = (tab: typeof tutorTab) => tab.frames.filter((f) => f.type === 'class-room-signal');
    /** Frames arrive in order: once a chat line said now reached every tab, earlier frames have too. */
    const settle = async () => {
      const said = await (
        await send(t, 'POST', `${room.base}/chat`, { text: 'marker' }, room.tutor.jar)
      ).json();
      const marks = (f: Frame) => f.type === 'class-room-chat' && (f.line as { id: unknown }).id === said.id;
      await Promise.all([tutorTab, firstTab, secondTab].map((tab) => tab.next(marks)));
      const strangerSaid = await (
        await send(t, 'POST', `${other.base}/chat`, { text: 'marker' }, other.tutor.jar)
      ).json();
      await strangerTab.next(
        (f) => f.type === 'class-room-chat' && (f.line as { id: unknown }).id === strangerSaid.id,
      );
    };

    // The first student's page says hello to the room: the tutor and the other student hear it.
    const hello = { peer: 'page-first', signal: { kind: 'hello' } };
    expect((await signal(room.base, room.first, hello)).status).toBe(202);
    const heard = {
      type: 'class-room-signal',
      sessionId: room.sessionId,
      from: { userId: room.first.id, role: 'student', peer: 'page-first' },
      to: null,
      signal: { kind: 'hello' },
    };
    expect(await tutorTab.next((f) => f.type === 'class-room-signal')).toEqual(heard);
    expect(await secondTab.next((f) => f.type === 'class-room-signal')).toEqual(heard);

    // The tutor's page answers that page alone, and the second student's page sets up its own pair.
    const offer = {
      peer: 'page-tutor',
      to: { userId: room.first.id, peer: 'page-first' },
      signal: { kind: 'description', type: 'offer', sdp: 'v=0\r\n' },
    };
    expect((await signal(room.base, room.tutor, offer)).status).toBe(202);
    expect(await firstTab.next((f) => f.type === 'class-room-signal')).toEqual({
      type: 'class-room-signal',
      sessionId: room.sessionId,
      from: { userId: room.tutor.id, role: 'tutor', peer: 'page-tutor' },
      to: 'page-first',
      signal: offer.signal,
    });
    const candidate = {
      peer: 'page-second',
      to: { userId: room.first.id, peer: 'page-first' },
      signal: {
        kind: 'candidate',
        candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
      },
    };
    expect((await signal(room.base, room.second, candidate)).status).toBe(202);
    await firstTab.next(
      (f) => f.type === 'class-room-signal' && (f.from as { peer: string }).peer === 'page-second',
    );

    // Nobody outside the room can be named, and nobody in it can be sent another room's signal.
    const toStranger = { ...offer, to: { userId: other.first.id, peer: 'page-stranger' } };
    expect((await signal(room.base, room.tutor, toStranger)).status).toBe(404);
    expect((await signal(other.base, room.tutor, hello)).status).toBe(404);

    await settle();
    expect(signals(tutorTab)).toHaveLength(1);
    expect(signals(secondTab)).toHaveLength(1);
    expect(signals(firstTab).map((f) => (f.from as { peer: string }).peer)).toEqual([
      'page-tutor',
      'page-second',
    ]);
    expect(
      strangerTab.frames.filter((f) => f.type.startsWith('class-room') && f.type !== 'class-room-chat'),
    ).toEqual([]);
    expect(
      strangerTab.frames.filter((f) => f.type === 'class-room-chat' && f.sessionId === room.sessionId),
    ).toEqual([]);
    for (const tab of [tutorTab, firstTab, secondTab, strangerTab]) tab.socket.close();
  });

  it('refuses a description or candidate that names no page, and signals it cannot pass on', async () => {
    const { base, first } = await classSession(2 * MINUTE);
    const unaddressed = { peer: 'page-0003', signal: { kind: 'description', type: 'offer', sdp: 'v=0' } };
    const res = await signal(base, first, unaddressed);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('A description or a candidate must name the page it is for');
    expect((await signal(base, first, { peer: 'page-0003', signal: { kind: 'shout' } })).status).toBe(400);
    expect(
      (
        await signal(base, first, {
          peer: 'page-0003',
          to: { userId: 'x', peer: 'y' },
          signal: { kind: 'bye' },
        })
      ).status,
    ).toBe(400);
    for (const text of ['', 'x'.repeat(1001), 'a\u0000b'])
      expect((await send(t, 'POST', `${base}/chat`, { text }, first.jar)).status).toBe(400);
  });

  it('keeps the chat with the session and gives every line to all three', async () => {
    const { base, sessionId, tutor, first, second } = await classSession(2 * MINUTE);
    const tabs = await Promise.all([tutor, first, second].map((who) => openChannel(server.url, who.jar)));
    const said = await send(t, 'POST', `${base}/chat`, { text: '¿Me oís todos?' }, second.jar);
    expect(said.status).toBe(201);
    const line = await said.json();
    expect(line).toMatchObject({ sessionId, senderId: second.id, text: '¿Me oís todos?' });
    for (const tab of tabs)
      expect(await tab.next((f) => f.type === 'class-room-chat')).toEqual({
        type: 'class-room-chat',
        sessionId,
        line,
      });
    for (const who of [tutor, first])
      expect((await (await get(t, `${base}/chat`, who.jar)).json()).lines).toEqual([line]);
    for (const tab of tabs) tab.socket.close();
  });
});

describe('muting and attendance', () => {
  it('lets the tutor mute a student for everyone, and nobody else mute anyone', async () => {
    const { base, sessionId, tutor, first, second, left } = await classSession(2 * MINUTE);
    const tabs = await Promise.all([tutor, first, second].map((who) => openChannel(server.url, who.jar)));
    const muted = await send(t, 'POST', `${base}/mute`, { userId: first.id }, tutor.jar);
    expect(muted.status).toBe(200);
    for (const tab of tabs)
      expect(await tab.next((f) => f.type === 'class-room-muted')).toEqual({
        type: 'class-room-muted',
        sessionId,
        userId: first.id,
        by: tutor.id,
      });
    const byStudent = await send(t, 'POST', `${base}/mute`, { userId: second.id }, first.jar);
    expect(byStudent.status).toBe(403);
    expect(await byStudent.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only the tutor can mute a student',
    });
    // Only a student in the room: not the tutor, not one who left.
    for (const userId of [tutor.id, left.id])
      expect((await send(t, 'POST', `${base}/mute`, { userId }, tutor.jar)).status).toBe(404);
    expect((await send(t, 'POST', `${base}/mute`, {}, tutor.jar)).status).toBe(400);
    for (const tab of tabs) tab.socket.close();
  });

  it('records joining against the seats, so each seat reads as a lesson both attended', async () => {
    const { base, tutor, first, second, seats } = await classSession(2 * MINUTE);
    const joined = await send(t, 'POST', `${base}/join`, {}, first.jar);
    expect(joined.status).toBe(200);
    const { joinedAt } = await joined.json();
    await send(t, 'POST', `${base}/join`, {}, tutor.jar);
    const people = (await (await get(t, base, second.jar)).json()).people;
    expect(people.map((p: { joinedAt: string | null }) => p.joinedAt !== null)).toEqual([true, true, false]);
    expect(people[1].joinedAt).toBe(joinedAt);
    const rows = await t.database.db
      .selectFrom('lesson_attendance')
      .select(['lesson_id', 'user_id'])
      .where('lesson_id', 'in', Object.values(seats))
      .execute();
    const firstSeat = seats[first.id];
    const secondSeat = seats[second.id];
    expect(
      rows
        .map(
          (row) =>
            `${row.lesson_id === firstSeat ? 'first' : row.lesson_id === secondSeat ? 'second' : '?'}:${row.user_id === tutor.id ? 'tutor' : 'student'}`,
        )
        .sort(),
    ).toEqual(['first:student', 'first:tutor', 'second:tutor']);
  });
});
