/**
 * The six questions of the contact page, answered as the product works today. `rate` is what most
 * of this school's tutors charge ("$25-$75 per hour"), left unsaid until enough tutors are listed.
 */
import { t } from '@lingui/core/macro';

export const faq = (rate: string | null) => [
  {
    question: t`How do I find the right tutor?`,
    answer: t`Search the tutors by subject, category, price, language and rating, or by name and keyword. Every profile shows what the tutor teaches, their rate, the languages they teach in, their reviews and their free times, and you can message a tutor before you book.`,
  },
  {
    question: t`How much does tutoring cost?`,
    answer: rate
      ? t`Tutors set their own rates, shown on every tutor profile. Most lessons cost ${rate}, with no subscription.`
      : t`Tutors set their own rates, shown on every tutor profile, with no subscription.`,
  },
  {
    question: t`Can I cancel or reschedule a lesson?`,
    answer: t`Yes. Each tutor sets their own cancellation policy: 24 hours unless their page says otherwise. Until then you can cancel for free or move the lesson to another free time of your tutor’s; after it you can still cancel, for the late cancellation fee their page states. Both of you get a mail with an updated calendar invitation for every change.`,
  },
  {
    question: t`Are the tutors verified?`,
    answer: t`Every tutor confirms their email address, and a profile appears in search only once it is complete. Tutors can ask our team to check their profile, and only those we approve carry the Verified tutor badge. After each lesson, students can leave a review that everyone can read.`,
  },
  {
    question: t`How do video sessions work?`,
    answer: t`Shortly before a confirmed lesson starts, Join appears on your schedule and dashboard and opens the lesson room in your browser: video and sound, screen sharing, and a chat kept with the lesson. There is nothing to install; allow your camera and microphone when your browser asks. After the lesson, your tutor can add notes and you can track your goals.`,
  },
  {
    question: t`How do I become a tutor?`,
    answer: t`Sign up and choose Tutor. Complete your profile with your subjects, your rate and a few words about how you teach, set the hours you are free, and students can find you and book lessons.`,
  },
];
