/**
 * How a tutor's proposal of a new time reads: only while the lesson is planned and has not
 * started, so an unanswered one lapses at the start without anything clearing it; and the words
 * the student's mail and the tutor's decline mail say.
 */
import { describe, expect, it } from 'vitest';
import { lessonMail, type MailLesson } from '../../src/server/lessons/lesson-mail';
import { proposalAt } from '../../src/server/lessons/lesson-records';

const HOUR = 60 * 60 * 1000;
const now = Date.parse('2026-03-02T09:00:00Z');
const row = {
  status: 'confirmed' as const,
  expires_at: null,
  starts_at: new Date(now + 2 * HOUR),
  ends_at: new Date(now + 3 * HOUR),
  proposed_start: new Date(now + 26 * HOUR),
  proposed_end: new Date(now + 27 * HOUR),
  proposal_note: 'Later?',
  proposed_at: new Date(now - HOUR),
};

describe('proposalAt', () => {
  it('reads the open proposal of a planned lesson before its start', () => {
    expect(proposalAt(row, now)).toEqual({
      start: '2026-03-03T11:00:00.000Z',
      end: '2026-03-03T12:00:00.000Z',
      note: 'Later?',
      proposedAt: '2026-03-02T08:00:00.000Z',
    });
  });

  it('lapses at the start, and reads null for a lesson no longer planned or with none open', () => {
    expect(proposalAt(row, now + 2 * HOUR)).toBeNull();
    expect(proposalAt({ ...row, status: 'cancelled' as const }, now)).toBeNull();
    expect(proposalAt({ ...row, status: 'pending' as const, expires_at: new Date(now - 1) }, now)).toBeNull();
    expect(
      proposalAt(
        { ...row, proposed_start: null, proposed_end: null, proposal_note: null, proposed_at: null },
        now,
      ),
    ).toBeNull();
  });
});

describe('proposal mails', () => {
  const person = (id: string, name: string, timeZone: string | null) => ({
    id,
    displayName: name,
    email: `${id}@example.com`,
    timeZone,
  });
  const lesson: MailLesson = {
    id: '00000000-0000-4000-8000-000000000001',
    subject: 'Algebra',
    note: '',
    start: row.starts_at,
    end: row.ends_at,
    priceCents: 4000,
    currency: 'USD',
    sequence: 0,
    tutor: person('t', 'Tess', 'America/New_York'),
    student: person('s', 'Sam', 'Europe/Berlin'),
  };
  const settings = { appUrl: 'https://tutorlane.example', mailFrom: 'Tutorlane <hello@tutorlane.example>' };
  const proposed = { start: row.proposed_start, end: row.proposed_end, note: 'Later?' };

  it("tells the student the proposed time in their own zone, with the tutor's note", () => {
    const mail = lessonMail('proposed', lesson, lesson.student, settings, { proposed });
    expect(mail.subject).toContain('New time proposed: Algebra lesson with Tess');
    expect(mail.text).toContain('to Tuesday, March 3, 2026, 12:00–13:00 Central European Time (Berlin)');
    expect(mail.text).toContain('Their note: Later?');
    expect(mail.calendar).toBeUndefined();
  });

  it('tells the tutor their proposal was declined and the lesson stays', () => {
    const mail = lessonMail('proposal-declined', lesson, lesson.tutor, settings, { proposed });
    expect(mail.text).toContain('Sam declined the time you proposed');
    expect(mail.text).toContain('stays on');
  });
});
