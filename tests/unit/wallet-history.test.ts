import { describe, expect, it } from 'vitest';
import { transactionLabel } from '../../src/client/features/wallet/wallet-history';

const lesson = (cancelled: boolean) => ({
  id: 'l1',
  subject: 'Algebra',
  start: '2026-12-01T10:00:00.000Z',
  cancelled,
});

describe('a wallet movement’s label', () => {
  it('calls a settlement of a lesson that took place a lesson taught', () => {
    expect(transactionLabel({ kind: 'lesson_settle', lesson: lesson(false) }, 'tutor')).toBe(
      'Lesson taught: earned',
    );
  });

  it('calls a settlement of a cancelled lesson its late cancellation fee, for a lesson not taught', () => {
    for (const role of ['tutor', 'student'] as const) {
      const label = transactionLabel({ kind: 'lesson_settle', lesson: lesson(true) }, role);
      expect(label).toMatch(/^Late cancellation fee/);
      expect(label).toContain('the lesson did not take place');
      expect(label).not.toContain('taught');
    }
  });

  it('leaves the other movements of a cancelled lesson as they are', () => {
    expect(transactionLabel({ kind: 'lesson_release', lesson: lesson(true) }, 'student')).toBe(
      'Lesson not held: back to your balance',
    );
  });
});
