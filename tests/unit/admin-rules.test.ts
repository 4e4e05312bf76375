import { describe, expect, it } from 'vitest';
import { listingRuleSentence } from '../../src/shared/admin/admin-rules';

describe('the admin overview’s sentence on who is listed', () => {
  it('says what the setting means in words, never its variable’s name', () => {
    expect(listingRuleSentence(true)).toBe(
      'Only tutors an administrator has verified are listed: a new tutor stays hidden from students until one of you verifies them.',
    );
    expect(listingRuleSentence(false)).toBe(
      'Every tutor with a complete profile is listed at once, without waiting for an administrator’s check; those verified carry the badge.',
    );
    for (const approval of [true, false]) expect(listingRuleSentence(approval)).not.toMatch(/[A-Z]{2,}_/);
  });
});
