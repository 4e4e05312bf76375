/** The six questions of the contact page. */
import { TYPICAL_PRICE_RANGE } from '../../../shared/constants';

export const faq = [
  {
    question: 'How do I find the right tutor?',
    answer:
      'Create a free account, tell us what you want to learn, and browse tutors by subject, price and language. Every tutor profile shows their experience and what they teach.',
  },
  {
    question: 'How much does tutoring cost?',
    answer: `Tutors set their own rates, shown on every tutor profile. Most lessons cost ${TYPICAL_PRICE_RANGE}, with no subscription.`,
  },
  {
    question: 'Can I cancel or reschedule a lesson?',
    answer: 'Yes. You can cancel or reschedule a lesson free of charge up to 24 hours before it starts.',
  },
  {
    question: 'Are the tutors verified?',
    answer:
      'Every tutor verifies their email address before they can teach, and a tutor profile is only published once it is complete.',
  },
  {
    question: 'How do video sessions work?',
    answer:
      'Video lessons are not part of Tutorlane yet: we are building them and will announce them on this page when they are ready.',
  },
  {
    question: 'How do I become a tutor?',
    answer:
      'Sign up and choose Tutor. Complete your profile with your subjects, your rate and a few words about how you teach, and students can find you.',
  },
];
