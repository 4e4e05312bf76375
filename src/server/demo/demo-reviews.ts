/**
 * Demo reviews for `npm run seed:demo`: most demo students review the tutors they have had
 * completed lessons with, a day after their latest one, mostly warmly and now and then not; some
 * tutors answer. Tied to the demo lessons (nobody reviews a tutor they never had a lesson with),
 * generated from a fixed seed, and counted into each tutor's rating like any review.
 */
import { randomUUID } from 'node:crypto';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { DB, ReviewsTable } from '../db/schema';
import { seededRandom } from './demo-tutors';

const DAY = 24 * 60 * 60 * 1000;

const TEXTS: Record<number, readonly string[]> = {
  5: [
    'Every {subject} lesson is clear and well prepared. I finally understand what I was stuck on for months.',
    'Patient, friendly and always on time. My {subject} has improved more in three weeks than in a term.',
    'Explains {subject} with examples that stick, and the homework is just the right amount.',
  ],
  4: [
    'Good {subject} lessons with a clear plan. Sometimes a little fast, but always happy to go back over things.',
    'Knows {subject} very well and gives useful feedback. I would like a bit more practice time in class.',
  ],
  3: ['The {subject} explanations are fine, but the lessons felt rushed and the plan changed often.'],
  2: ['We did not really work on what I asked for in {subject}. Friendly, but not the right fit for me.'],
};
const ANSWERS = [
  'Thank you! It is a pleasure to work with you. See you next week.',
  'Thanks for the kind words, and for the practice between lessons.',
  'Thank you for the feedback: I will keep more time for exercises.',
];

export async function insertDemoReviews(db: Kysely<DB>, now: number): Promise<void> {
  const random = seededRandom(31);
  const pairs = await db
    .selectFrom('lessons')
    .select([
      'tutor_id',
      'student_id',
      (eb) => eb.fn.max('ends_at').as('last_end'),
      (eb) => eb.fn.min('subject').as('subject'),
    ])
    .where('status', '=', 'completed')
    .groupBy(['tutor_id', 'student_id'])
    .orderBy('tutor_id')
    .orderBy('student_id')
    .execute();
  const reviews: Insertable<ReviewsTable>[] = [];
  for (const pair of pairs) {
    if (random() < 0.35) continue;
    const roll = random();
    const rating = roll < 0.62 ? 5 : roll < 0.9 ? 4 : roll < 0.97 ? 3 : 2;
    const texts = TEXTS[rating] ?? TEXTS[5] ?? [];
    const text = (texts[Math.floor(random() * texts.length)] ?? '').replaceAll('{subject}', pair.subject);
    // A day after the latest lesson, or an hour ago for a lesson that ended less than a day ago.
    const at = new Date(Math.min(new Date(pair.last_end).getTime() + DAY, now - DAY / 24));
    const answered = random() < 0.3;
    reviews.push({
      id: randomUUID(),
      tutor_id: pair.tutor_id,
      student_id: pair.student_id,
      rating,
      body: text,
      created_at: at,
      answer: answered ? (ANSWERS[Math.floor(random() * ANSWERS.length)] ?? null) : null,
      answered_at: answered ? new Date(Math.min(at.getTime() + DAY / 2, now)) : null,
    });
  }
  for (let start = 0; start < reviews.length; start += 500)
    await db
      .insertInto('reviews')
      .values(reviews.slice(start, start + 500))
      .execute();
  await sql`update tutor_profiles tp
    set rating_count = r.n, rating_sum = r.total
    from (select tutor_id, count(*)::int as n, sum(rating)::int as total from reviews group by tutor_id) r
    where r.tutor_id = tp.user_id`.execute(db);
}
