/** The publication rule: what a tutor profile still needs before it appears in search. */
import { describe, expect, it } from 'vitest';
import {
  missingForPublication,
  PUBLICATION_REQUIREMENTS,
  type PublicationInput,
} from '../../src/shared/tutor-catalog';

const complete: PublicationInput = {
  emailVerified: true,
  hasPhoto: false,
  headline: 'Patient algebra coaching',
  subjects: ['Algebra'],
  hourlyRate: 40,
  about: 'I explain every step.',
};

describe('missingForPublication', () => {
  it('needs nothing more for a verified tutor with a headline, a subject, a rate and an about text', () => {
    expect(missingForPublication(complete)).toEqual([]);
  });

  it('takes a photo in place of a headline', () => {
    expect(missingForPublication({ ...complete, headline: '', hasPhoto: true })).toEqual([]);
  });

  it.each([
    ['an unverified email', { emailVerified: false }, PUBLICATION_REQUIREMENTS.emailVerified],
    ['neither photo nor headline', { headline: '' }, PUBLICATION_REQUIREMENTS.photoOrHeadline],
    ['a headline of spaces', { headline: '   ' }, PUBLICATION_REQUIREMENTS.photoOrHeadline],
    ['no subject', { subjects: [] }, PUBLICATION_REQUIREMENTS.subjects],
    ['no rate', { hourlyRate: null }, PUBLICATION_REQUIREMENTS.hourlyRate],
    ['an empty about text', { about: '' }, PUBLICATION_REQUIREMENTS.about],
    ['an about text of spaces', { about: ' \n ' }, PUBLICATION_REQUIREMENTS.about],
  ] as const)('names the one thing missing: %s', (_, change, expected) => {
    expect(missingForPublication({ ...complete, ...change })).toEqual([expected]);
  });

  it('lists everything missing in the order the profile form shows it', () => {
    expect(
      missingForPublication({
        emailVerified: false,
        hasPhoto: false,
        headline: '',
        subjects: [],
        hourlyRate: null,
        about: '',
      }),
    ).toEqual([
      'Verify your email address',
      'Add a photo or a headline',
      'Choose at least one subject',
      'Set your hourly rate',
      'Write a few words about yourself',
    ]);
  });
});
