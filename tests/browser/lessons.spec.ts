/**
 * A lesson's life in two browsers in two time zones: a tutor in New York offers hours, a student
 * in Tokyo books one on the tutor's page, both see it on their schedule and dashboard in their own
 * zone, the invitation in the mail parses, and the student cancels it.
 */
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { clockLabel, lessonTimeLabel, shortDayLabel } from '../../src/shared/lessons/lesson-times';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  secondBrowser,
  test,
  waitForMail,
} from './fixtures';

const TUTOR_ZONE = 'America/New_York';
const STUDENT_ZONE = 'Asia/Tokyo';

test.use({ timezoneId: TUTOR_ZONE });

/** The first whole hour at least three days from now that falls in the tutor's 09:00-17:00. */
function lessonStart(): number {
  const day = Temporal.Now.zonedDateTimeISO(TUTOR_ZONE).toPlainDate().add({ days: 3 });
  return day.toZonedDateTime({ timeZone: TUTOR_ZONE, plainTime: Temporal.PlainTime.from('10:00') })
    .epochMilliseconds;
}

function invitation(calendarText: string | undefined) {
  expect(calendarText, 'the mail carries no invitation').toBeDefined();
  const calendar = new ICAL.Component(ICAL.parse(calendarText ?? ''));
  const event = calendar.getFirstSubcomponent('vevent');
  if (!event) throw new Error('no event in the invitation');
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: String(event.getFirstPropertyValue('uid')),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime(),
  };
}

test('a student in Tokyo books a New York tutor, both see it in their zone, and the student cancels', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // The tutor: a published profile and weekday-and-weekend hours, through the API.
  const tutor = await createAccount(page, { role: 'tutor', displayName: 'Nora Newyork' });
  expect(
    (
      await page.request.patch('/api/profile/details', {
        data: {
          headline: 'Algebra without tears',
          about: 'Patient lessons.',
          subjects: ['Algebra'],
          hourlyRate: 50,
          languages: ['English'],
        },
      })
    ).status(),
  ).toBe(200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));
  const saved = await page.request.put('/api/availability', {
    data: {
      timeZone: TUTOR_ZONE,
      weekly: hours,
      overrides: [],
      lessonMinutes: [60],
      slotStepMinutes: 60,
      minimumNoticeHours: 0,
      bookingHorizonDays: 30,
      bufferMinutes: 0,
      instantBooking: true,
    },
  });
  expect(saved.status()).toBe(200);
  const tutorId = (await (await page.request.get('/api/session')).json()).user.id as string;

  // The student, in Tokyo, books on the tutor's page.
  const studentPage = await secondBrowser(browser, STUDENT_ZONE);
  const student = await createAccount(studentPage, { role: 'student', displayName: 'Kenji Tokyo' });
  // On a phone the booking box is under the profile and the reviews: what is above it comes with
  // it, for a line shown later (the review forms' note, whose code the page's loader had fetched)
  // moved the day away between a finger's press and its release. Read as the box is first shown.
  await studentPage.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.getElementById('book-a-lesson')) return;
      observer.disconnect();
      const note = document.body.textContent?.includes('You can review Nora Newyork after a lesson');
      Object.assign(window, { noteWithTheBox: note });
    }).observe(document, { childList: true, subtree: true });
  });
  await studentPage.goto(`/tutors/${tutorId}`);
  const booking = studentPage.getByRole('region', { name: 'Book a lesson' });
  await expect(booking).toContainText('Tokyo');
  expect(await studentPage.evaluate(() => (window as { noteWithTheBox?: boolean }).noteWithTheBox)).toBe(
    true,
  );
  const start = lessonStart();
  const end = start + 60 * 60 * 1000;
  // 10:00 in New York is 00:00 the next day in Tokyo: the day and the button are the student's.
  await booking.getByRole('radio', { name: new RegExp(`^${shortDayLabel(start, STUDENT_ZONE)}, `) }).check();
  const day = booking.getByRole('group', { name: new RegExp(`^${shortDayLabel(start, STUDENT_ZONE)}`) });
  await day.getByRole('button', { name: clockLabel(start, STUDENT_ZONE), exact: true }).click();
  await expect(booking).toContainText(lessonTimeLabel(start, end, STUDENT_ZONE));
  await expectNoAccessibilityViolations(studentPage);
  await booking.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(booking.getByRole('status')).toContainText(
    `Booked: ${lessonTimeLabel(start, end, STUDENT_ZONE)}`,
  );
  // The time is taken now.
  await expect(day.getByRole('button', { name: clockLabel(start, STUDENT_ZONE), exact: true })).toHaveCount(
    0,
  );

  // Both get a confirmation whose invitation is the lesson, in UTC.
  const confirmation = invitation((await waitForMail(student.email, 'Lesson confirmed')).calendar);
  expect(confirmation).toMatchObject({ method: 'REQUEST', sequence: 0, start });
  expect(invitation((await waitForMail(tutor.email, 'Lesson confirmed')).calendar).uid).toBe(
    confirmation.uid,
  );

  // Each sees it in their own zone.
  await studentPage.goto('/schedule');
  const studentUpcoming = studentPage.getByRole('region', { name: 'Upcoming lessons' });
  await expect(studentUpcoming).toContainText('Algebra with Nora Newyork');
  await expect(studentUpcoming).toContainText(lessonTimeLabel(start, end, STUDENT_ZONE));
  await expectNoAccessibilityViolations(studentPage);
  await studentPage.goto('/dashboard');
  await expect(studentPage.getByRole('region', { name: 'Upcoming lessons' })).toContainText(
    lessonTimeLabel(start, end, STUDENT_ZONE),
  );

  await page.goto('/schedule');
  const tutorUpcoming = page.getByRole('region', { name: 'Upcoming lessons' });
  await expect(tutorUpcoming).toContainText('Algebra with Kenji Tokyo');
  await expect(tutorUpcoming).toContainText(lessonTimeLabel(start, end, TUTOR_ZONE));
  await expectNoAccessibilityViolations(page);
  await page.goto('/dashboard');
  const activeStudents = page
    .getByRole('region', { name: 'Performance' })
    .locator('div')
    .filter({ hasText: 'Active students' })
    .last();
  await expect(activeStudents.getByRole('definition')).toHaveText('1');

  // The student cancels, more than 24 hours ahead.
  await studentPage.goto('/schedule');
  await studentUpcoming.getByRole('button', { name: 'Cancel lesson' }).click();
  await studentUpcoming.getByLabel('Reason (optional)').fill('Exam moved');
  await studentUpcoming.getByRole('button', { name: 'Yes, cancel the lesson' }).click();
  await expect(studentUpcoming).toContainText('No lessons ahead.');
  const cancellation = invitation((await waitForMail(tutor.email, 'Lesson cancelled')).calendar);
  expect(cancellation).toMatchObject({ method: 'CANCEL', uid: confirmation.uid, sequence: 1 });
  await page.goto('/schedule');
  await expect(page.getByRole('region', { name: 'Upcoming lessons' })).toContainText('No lessons ahead.');
  await studentPage.context().close();
});
