/**
 * Reviews over the API: only a student with a completed lesson reviews a tutor (no other lesson
 * status qualifies), once per pair with edits; the tutor answers once; anyone verified reports;
 * the search sorts by a Bayesian average and filters by the shown average; and a reviewer is
 * never named beyond "First L.".
 */
import type { Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB, LessonStatusColumn } from '../../src/server/db/schema';
import { type CompletedLesson, runLessonJobs } from '../../src/server/lessons/lesson-jobs';
import { lessonLine } from '../../src/server/messages/messages';
import { inviteToReview } from '../../src/server/reviews/review-invites';
import { type CookieJar, get, send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { insertLesson } from '../support/lessons';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest();

const HOUR = 60 * 60 * 1000;

/** A published tutor with a headline that the search can find by `word`. */
async function tutor(word = 'Reviewable'): Promise<Person> {
  const who = await person('tutor');
  const details = {
    headline: `${word} chemistry`,
    about: 'Patient.',
    subjects: ['Chemistry'],
    hourlyRate: 30,
    languages: ['English'],
  };
  expect((await send(t, 'PATCH', '/api/profile/details', details, who.jar)).status).toBe(200);
  return who;
}

/** A lesson between the two, straight into the database, `hoursAgo` before now. */
const lesson = (teacher: Person, student: Person, status: LessonStatusColumn, hoursAgo = 48) =>
  insertLesson(t.database.db, {
    tutorId: teacher.id,
    studentId: student.id,
    status,
    start: Date.now() - hoursAgo * HOUR,
  });

const review = (
  who: Person,
  tutorId: string,
  rating: number,
  text = 'Clear explanations and good pacing throughout.',
) => send(t, 'PUT', `/api/tutors/${tutorId}/review`, { rating, text }, who.jar);
const reviewsOf = async (tutorId: string, jar?: CookieJar) =>
  (await get(t, `/api/tutors/${tutorId}/reviews`, jar)).json();

describe('who may review', () => {
  it('only a student with a completed lesson: no other lesson status qualifies', async () => {
    const teacher = await tutor();
    for (const status of ['pending', 'declined', 'expired', 'cancelled', 'no_show'] as const) {
      const student = await person('student');
      await lesson(teacher, student, status);
      const refused = await review(student, teacher.id, 5);
      expect(refused.status, status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'NO_COMPLETED_LESSON' });
    }
    // A confirmed lesson in the future has not taken place; one whose end has passed has.
    const waiting = await person('student');
    await lesson(teacher, waiting, 'confirmed', -24);
    expect((await review(waiting, teacher.id, 5)).status).toBe(403);
    const done = await person('student');
    await lesson(teacher, done, 'confirmed', 2);
    expect((await review(done, teacher.id, 5)).status).toBe(201);
    const completed = await person('student');
    await lesson(teacher, completed, 'completed');
    // The dashboard and the schedule invite the student to review, until they have.
    const invited = async () => [
      (await (await get(t, '/api/dashboard', completed.jar)).json()).toReview,
      (await (await get(t, '/api/schedule', completed.jar)).json()).toReview,
    ];
    for (const list of await invited())
      expect(list.map((x: { tutorId: string }) => x.tutorId)).toEqual([teacher.id]);
    expect((await review(completed, teacher.id, 4)).status).toBe(201);
    for (const list of await invited()) expect(list).toEqual([]);
    // Tutors do not review tutors.
    expect((await review(await tutor(), teacher.id, 5)).status).toBe(403);
  });

  it('refuses ratings and texts out of bounds, with a message', async () => {
    const teacher = await tutor();
    const student = await person('student');
    await lesson(teacher, student, 'completed');
    for (const [rating, text, message] of [
      [0, 'Long enough text for a review.', 'Please choose a rating from 1 to 5 stars'],
      [6, 'Long enough text for a review.', 'Please choose a rating from 1 to 5 stars'],
      [4.5, 'Long enough text for a review.', 'Please choose a rating from 1 to 5 stars'],
      [4, 'Too short', 'A review must be at least 20 characters'],
      [4, 'x'.repeat(2001), 'A review must be at most 2000 characters'],
    ] as const) {
      const res = await review(student, teacher.id, rating, text);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
  });
});

describe('one review per student and tutor', () => {
  it('edits the same review, shows the newest text as edited, and keeps the average true', async () => {
    const teacher = await tutor();
    const [ana, ben] = [await person('student', 'Ana Maria Kowalski'), await person('student', 'Ben')];
    await lesson(teacher, ana, 'completed');
    await lesson(teacher, ben, 'completed');
    const first = await review(ana, teacher.id, 3, 'Good, but the pace was fast for me.');
    expect(first.status).toBe(201);
    const edited = await review(ana, teacher.id, 5, 'After three lessons: the pace suits me now.');
    expect(edited.status).toBe(200);
    expect((await review(ben, teacher.id, 4)).status).toBe(201);
    const page = await reviewsOf(teacher.id);
    expect(page).toMatchObject({ average: 4.5, count: 2, distribution: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 } });
    const anas = page.reviews.find((r: { reviewer: string }) => r.reviewer === 'Ana K.');
    expect(anas).toMatchObject({ rating: 5, text: 'After three lessons: the pace suits me now.' });
    expect(anas.editedAt).not.toBeNull();
    // Privacy: a first name and an initial, nothing else about the student.
    const body = JSON.stringify(page);
    expect(body).not.toContain('Kowalski');
    expect(body).not.toContain(ana.email);
    expect(body).not.toContain(ana.id);
    expect(page.reviews.map((r: { reviewer: string }) => r.reviewer).sort()).toEqual(['Ana K.', 'Ben']);
    // The tutor's dashboard shows the same rating.
    expect((await (await get(t, '/api/dashboard', teacher.jar)).json()).rating).toEqual({
      average: 4.5,
      count: 2,
    });
    // The student sees their own review and may edit it.
    expect((await reviewsOf(teacher.id, ana.jar)).you).toMatchObject({
      canReview: true,
      review: { rating: 5 },
    });
    expect((await reviewsOf(teacher.id)).you).toBeNull();
  });

  it('makes one review of two written at once', async () => {
    const teacher = await tutor();
    const student = await person('student');
    await lesson(teacher, student, 'completed');
    const answers = await Promise.all([1, 2, 3, 4, 5].map((rating) => review(student, teacher.id, rating)));
    expect(answers.every((res) => res.status === 201 || res.status === 200)).toBe(true);
    const page = await reviewsOf(teacher.id);
    expect(page.count).toBe(1);
    expect(page.reviews).toHaveLength(1);
  });
});

describe('invitations by mail', () => {
  it('asks after the first and the third completed lesson with a tutor, once each, even with two servers', async () => {
    const teacher = await tutor();
    const student = await person('student', 'Ines Invited');
    const deps = {
      db: t.database.db,
      mailer: t.mailer,
      mail: { appUrl: TEST_APP_URL, mailFrom: t.config.mailFrom },
      conversations: { lessonLine },
      payments: t.config.payments,
      afterCompleted: (trx: Transaction<DB>, completed: CompletedLesson[]) =>
        inviteToReview({ mailer: t.mailer, appUrl: TEST_APP_URL }, trx, completed),
    };
    const invitations = () =>
      mailbox.mailsTo(student.email).filter((m) => m.subject.startsWith('How are your lessons'));
    const completeOne = async (hoursAgo: number) => {
      await lesson(teacher, student, 'confirmed', hoursAgo);
      // Two servers' minute jobs at once: the lesson is completed, and mailed about, by one.
      await Promise.all([runLessonJobs(deps), runLessonJobs(deps)]);
      // Every mail the jobs queued is delivered (the catcher has it) when this pass is over.
      await t.mailer.deliverDue();
    };
    await completeOne(30);
    expect(invitations()).toHaveLength(1);
    expect(invitations()[0]?.text).toContain(`/tutors/${teacher.id}#reviews-heading`);
    await completeOne(20);
    expect(invitations()).toHaveLength(1);
    await completeOne(10);
    expect(invitations()).toHaveLength(2);
    expect(invitations()[1]?.text).toContain('three lessons');
  });
});

describe('answers and reports', () => {
  it('lets the reviewed tutor answer once, and nobody else', async () => {
    const teacher = await tutor();
    const student = await person('student');
    await lesson(teacher, student, 'completed');
    const { id } = await (await review(student, teacher.id, 4)).json();
    const answer = (who: Person, text = 'Thank you, see you on Tuesday!') =>
      send(t, 'POST', `/api/reviews/${id}/answer`, { text }, who.jar);
    expect((await answer(student)).status).toBe(403);
    expect((await answer(await tutor())).status).toBe(403);
    const answered = await answer(teacher);
    expect(answered.status).toBe(200);
    expect((await answered.json()).answer).toMatchObject({ text: 'Thank you, see you on Tuesday!' });
    const again = await answer(teacher, 'Second thoughts');
    expect(again.status).toBe(409);
    expect((await reviewsOf(teacher.id)).reviews[0].answer.text).toBe('Thank you, see you on Tuesday!');
    expect(
      (await send(t, 'POST', `/api/reviews/${crypto.randomUUID()}/answer`, { text: 'x' }, teacher.jar))
        .status,
    ).toBe(404);
  });

  it('keeps a report with its reason and a copy of the review as it was', async () => {
    const teacher = await tutor();
    const student = await person('student');
    await lesson(teacher, student, 'completed');
    const { id } = await (
      await review(student, teacher.id, 1, 'Contact me at spam.example for cheap essays')
    ).json();
    const reporter = await person('student');
    expect((await send(t, 'POST', `/api/reviews/${id}/report`, { reason: '' }, reporter.jar)).status).toBe(
      400,
    );
    expect((await send(t, 'POST', `/api/reviews/${id}/report`, { reason: 'Spam' })).status).toBe(401);
    const made = await send(t, 'POST', `/api/reviews/${id}/report`, { reason: 'Spam' }, reporter.jar);
    expect(made.status).toBe(201);
    const row = await t.database.db
      .selectFrom('review_reports')
      .selectAll()
      .where('id', '=', (await made.json()).id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      reporter_id: reporter.id,
      reason: 'Spam',
      review_text: 'Contact me at spam.example for cheap essays',
    });
  });
});

describe('the search', () => {
  it('sorts best rated by a Bayesian average, filters by the shown average, and shows both on cards', async () => {
    const word = `Bayes${Date.now()}`;
    const [one, many, none] = [await tutor(word), await tutor(word), await tutor(word)];
    const student = await person('student');
    await lesson(one, student, 'completed');
    expect((await review(student, one.id, 5)).status).toBe(201);
    // Six reviews averaging 4.8 (5,5,5,5,5,4) outrank a single 5.
    for (const rating of [5, 5, 5, 5, 5, 4]) {
      const fan = await person('student');
      await lesson(many, fan, 'completed');
      expect((await review(fan, many.id, rating)).status).toBe(201);
    }
    const search = async (query: string) => (await get(t, `/api/tutors?q=${word}&${query}`)).json();
    const best = await search('sort=rating');
    expect(best.tutors.map((card: { id: string }) => card.id)).toEqual([many.id, one.id, none.id]);
    expect(best.tutors[0].rating).toEqual({ average: 4.8, count: 6 });
    expect(best.tutors[2].rating).toEqual({ average: null, count: 0 });
    expect((await search('minRating=4.9')).tutors.map((card: { id: string }) => card.id)).toEqual([one.id]);
    expect((await search('minRating=4.8&sort=rating')).tutors.map((card: { id: string }) => card.id)).toEqual(
      [many.id, one.id],
    );
    expect((await get(t, '/api/tutors?minRating=6')).status).toBe(400);
    expect((await get(t, '/api/tutors?minRating=abc')).status).toBe(400);
  });
});
