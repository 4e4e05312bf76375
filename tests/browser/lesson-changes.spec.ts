/**
 * Changing a lesson on /schedule, and what its room page then says: cancelling asks first and
 * then tells one fresh notice that replaces the one before; a tutor answers a request with
 * Accept or Decline only, while the student cancels their own request; a lesson that has ended
 * never offers Join; the room of a cancelled or declined lesson says what happened, by whom and
 * when, in the viewer's zone.
 */
import type { Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { instantLabel } from '../../src/shared/lessons/lesson-times';
import { createAccount, expect, expectNoAccessibilityViolations, secondBrowser, test } from './fixtures';

const TUTOR_ZONE = 'America/New_York';
const STUDENT_ZONE = 'Europe/Berlin';

test.use({ timezoneId: TUTOR_ZONE });

/** A published tutor, signed in on `page`, who teaches Algebra from 08:00 to 20:00 every day. */
async function publishedTutor(
  page: Page,
  settings: { instantBooking?: boolean; timeZone?: string; overrides?: unknown[]; weekly?: unknown[] } = {},
) {
  await createAccount(page, { role: 'tutor', displayName: 'Tess Tutor' });
  const profile = await page.request.patch('/api/profile/details', {
    data: {
      headline: 'Algebra',
      about: 'Patient.',
      subjects: ['Algebra'],
      hourlyRate: 40,
      languages: ['English'],
    },
  });
  expect(profile.status()).toBe(200);
  const saved = await page.request.put('/api/availability', {
    data: {
      timeZone: settings.timeZone ?? TUTOR_ZONE,
      weekly:
        settings.weekly ??
        [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '08:00', end: '20:00' })),
      overrides: settings.overrides ?? [],
      lessonMinutes: [30, 60],
      slotStepMinutes: 15,
      minimumNoticeHours: 0,
      bookingHorizonDays: 30,
      bufferMinutes: 0,
      instantBooking: settings.instantBooking ?? true,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return (await (await page.request.get('/api/session')).json()).user.id as string;
}

/** `time` in the tutor's zone, `days` from today there. */
const tutorTime = (days: number, time: string) =>
  Temporal.Now.zonedDateTimeISO(TUTOR_ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: TUTOR_ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;

async function book(student: Page, tutorId: string, start: number, minutes = 60) {
  const res = await student.request.post('/api/lessons', {
    data: { tutorId, start: new Date(start).toISOString(), minutes, subject: 'Algebra' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id as string;
}

test('cancelling asks first, then one fresh notice replaces the one before; the room says who cancelled and when', async ({
  page,
  browser,
}) => {
  const tutorId = await publishedTutor(page);
  const studentPage = await secondBrowser(browser, STUDENT_ZONE);
  await createAccount(studentPage, { role: 'student', displayName: 'Sam Student' });
  await book(studentPage, tutorId, tutorTime(3, '10:00'));
  const second = await book(studentPage, tutorId, tutorTime(4, '10:00'));

  // The student moves the first lesson: the page says so.
  await studentPage.goto('/schedule');
  const upcoming = studentPage.getByRole('region', { name: 'Upcoming lessons' });
  const lessons = upcoming
    .getByRole('listitem')
    .filter({ has: studentPage.getByRole('button', { name: 'Cancel lesson' }) });
  await expect(lessons).toHaveCount(2);
  await lessons.first().getByRole('button', { name: 'Reschedule' }).click();
  await lessons
    .first()
    .getByRole('button', { name: /^\d\d:\d\d$/ })
    .first()
    .click();
  await lessons
    .first()
    .getByRole('button', { name: /^Move the lesson to/ })
    .click();
  const notices = studentPage.getByRole('status').filter({ hasText: /^Lesson (moved|cancelled)/ });
  await expect(notices).toHaveCount(1);
  await expect(notices).toContainText('Lesson moved: Algebra with Tess Tutor is now on');

  // Cancelling the second asks first: what, who is told, an optional reason.
  const lesson = upcoming.getByRole('listitem').filter({ hasText: 'Free to cancel' }).last();
  await lesson.getByRole('button', { name: 'Cancel lesson' }).click();
  const step = lesson.getByRole('group', { name: 'Cancel this lesson?' });
  await expect(step).toBeVisible();
  await expect(step.getByText('Cancel this lesson?')).toBeFocused();
  await expect(step).toContainText('Tess Tutor will get a mail that takes it out of both your calendars.');
  // Keeping it closes the step and gives the focus back.
  await step.getByRole('button', { name: 'Keep the lesson' }).click();
  await expect(step).toHaveCount(0);
  await expect(lesson.getByRole('button', { name: 'Cancel lesson' })).toBeFocused();
  await lesson.getByRole('button', { name: 'Cancel lesson' }).click();
  await step.getByLabel('Reason (optional)').fill('Exam moved');
  await expectNoAccessibilityViolations(studentPage);
  await step.getByRole('button', { name: 'Yes, cancel the lesson' }).click();

  // One notice, the new one: the move's is gone, and the focus is on it.
  await expect(notices).toHaveCount(1);
  await expect(notices).toContainText('Lesson cancelled: Algebra with Tess Tutor');
  await expect(notices).toContainText('You will both get a mail.');
  await expect(studentPage.getByText(/Lesson moved/)).toHaveCount(0);
  await expect(upcoming.getByRole('listitem')).toHaveCount(1);

  // The tutor opens the cancelled lesson's room: who cancelled it, when (in the tutor's zone), why.
  const { cancellation } = await (await page.request.get(`/api/lessons/${second}`)).json();
  await page.goto(`/lessons/${second}/room`);
  await expect(page.getByRole('heading', { level: 1, name: 'Algebra with Sam Student' })).toBeVisible();
  await expect(page.getByText('This lesson was cancelled, so it has no room.')).toBeVisible();
  await expect(
    page.getByText(`Sam Student cancelled it on ${instantLabel(Date.parse(cancellation.at), TUTOR_ZONE)}.`),
  ).toBeVisible();
  await expect(page.getByText('Reason given: Exam moved')).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await page.getByRole('link', { name: 'Back to your schedule' }).click();
  await expect(page).toHaveURL(/\/schedule$/);

  // The student reads that they did it, in their own zone.
  await studentPage.goto(`/lessons/${second}/room`);
  await expect(
    studentPage.getByText(`You cancelled it on ${instantLabel(Date.parse(cancellation.at), STUDENT_ZONE)}.`),
  ).toBeVisible();
  await studentPage.context().close();
});

test('a tutor answers a request with Accept or Decline; the student may cancel their own request', async ({
  page,
  browser,
}) => {
  const tutorId = await publishedTutor(page, { instantBooking: false });
  const studentPage = await secondBrowser(browser, STUDENT_ZONE);
  await createAccount(studentPage, { role: 'student', displayName: 'Rae Request' });
  const requested = await book(studentPage, tutorId, tutorTime(5, '11:00'));

  // The student's own request: Cancel request, which asks first; Escape keeps it.
  await studentPage.goto('/schedule');
  const upcoming = studentPage.getByRole('region', { name: 'Upcoming lessons' });
  await expect(upcoming.getByRole('button', { name: 'Cancel lesson' })).toHaveCount(0);
  await upcoming.getByRole('button', { name: 'Cancel request' }).click();
  const step = upcoming.getByRole('group', { name: 'Cancel this request?' });
  await expect(step.getByRole('button', { name: 'Yes, cancel the request' })).toBeVisible();
  await studentPage.keyboard.press('Escape');
  await expect(step).toHaveCount(0);
  await expect(upcoming.getByRole('button', { name: 'Cancel request' })).toBeFocused();

  // The tutor: Accept, Decline or another time, and no cancelling of a request they answer.
  await page.goto('/schedule');
  const requests = page.getByRole('region', { name: 'Requests' });
  await expect(requests).toContainText('Algebra with Rae Request');
  await expect(requests.getByRole('button')).toHaveText(['Accept', 'Decline', 'Propose a new time']);
  await expectNoAccessibilityViolations(page);
  await requests.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Request declined' })).toContainText(
    'Request declined: Algebra with Rae Request',
  );
  await expect(requests).toContainText('No requests are waiting for your answer.');

  // The request's room page says the tutor declined it.
  await studentPage.goto(`/lessons/${requested}/room`);
  await expect(studentPage.getByText('This lesson request was declined, so it has no room.')).toBeVisible();
  await expect(studentPage.getByText('Tess Tutor declined it.')).toBeVisible();
  await studentPage.context().close();
});

/** A zone where the next two hours stay within today, so a lesson can start in a few minutes. */
function zoneAwayFromMidnight(): string {
  for (const zone of ['UTC', 'Asia/Tokyo', 'America/Los_Angeles']) {
    const hour = Temporal.Now.zonedDateTimeISO(zone).hour;
    if (hour < 21) return zone;
  }
  return 'America/New_York';
}

test('a lesson that has ended never offers Join, though its room stays open a while', async ({
  page,
  browser,
}) => {
  const zone = zoneAwayFromMidnight();
  const start = Math.ceil((Date.now() + 2 * 60_000) / 60_000) * 60_000;
  const at = (instant: number) => Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone);
  const window = {
    date: at(start).toPlainDate().toString(),
    windows: [
      {
        start: at(start).toPlainTime().toString({ smallestUnit: 'minute' }),
        end: at(start + 60 * 60_000)
          .toPlainTime()
          .toString({ smallestUnit: 'minute' }),
      },
    ],
  };
  const tutorId = await publishedTutor(page, { timeZone: zone, weekly: [], overrides: [window] });
  const studentPage = await secondBrowser(browser, STUDENT_ZONE);
  await createAccount(studentPage, { role: 'student', displayName: 'Joe Joiner' });
  await book(studentPage, tutorId, start, 30);
  const end = start + 30 * 60_000;

  // Today's schedule on the tutor's dashboard: the room is open, so Join.
  await page.goto('/dashboard');
  const today = page.getByRole('region', { name: "Today's schedule" });
  await expect(today).toContainText('Joe Joiner');
  await expect(today.getByRole('link', { name: 'Join' })).toBeVisible();

  // Five minutes after its end (the room is open for 30): listed still, but no Join.
  await page.clock.setFixedTime(end + 5 * 60_000);
  await page.reload();
  await expect(today).toContainText('Joe Joiner');
  await expect(today.getByRole('link', { name: 'Join' })).toHaveCount(0);
  await studentPage.context().close();
});
