/**
 * /schedule: the user's week as a calendar, the lessons ahead with what can be done with each
 * (accept or decline a request, cancel, move; a weekly series' request answered once, the rest of a
 * series cancelled at once), the lessons that took place with their notes (the
 * tutor writes them there), and the calendar feed, all in the user's zone. A tutor's class session
 * shows once with the seats held; a student's seat is named after its class, without the lesson's
 * actions (./class-session-items.tsx), all in the user's zone
 * (the saved one, else this browser's), which the page names. Should the server refuse (the
 * session ended, or the email is not verified), the page itself asks to sign up or sign in.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { Link, useLoaderData } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { bookAgainPath } from '../../../shared/lessons/book-again';
import { isPlanned, isRequest } from '../../../shared/lessons/lesson-states';
import { addDays, localDate, startOfLocalDay } from '../../../shared/lessons/lesson-times';
import { paths, studentPath, tutorLessonsPath } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';
import { CardSection } from '../../components/card';
import { FamilyBadge } from '../../components/family-parts';
import { NotesEditor, NotesView } from '../../components/lesson-notes';
import { PaymentBadge, RoomLink, StatusBadge } from '../../components/lesson-parts';
import { ReviewInvites } from '../../components/review-invites';
import { ZoneNote } from '../../components/zone-note';
import { sideOf } from '../../lib/roles';
import { lessonTimeLabel, shortDayLabel } from '../../lib/time-labels';
import { CalendarFeedCard } from './calendar-feed-card';
import { ChangeNotice, type Notice } from './change-notice';
import { SeatItem, TaughtSessionItem, useCalendarLessons } from './class-session-items';
import { LessonActions } from './lesson-actions';
import { type Lesson, loadSchedule, type ScheduleData, type TaughtSession } from './schedule-data';
import { CancelRestOfSeries, groupRequests, SeriesRequest, WeeklyBadge } from './series-actions';
import { WeekCalendar } from './week-calendar';

export const loader = loadSchedule;

export function Component() {
  const schedule = useLoaderData<typeof loader>();
  const [notice, setNotice] = useState<Notice | null>(null);
  const tell = useCallback(
    (text: string) => setNotice((before) => ({ text, id: (before?.id ?? 0) + 1 })),
    [],
  );

  // The page's own hooks (the calendar's entries) run only with a schedule to show.
  if (!schedule) return <SignedOut />;
  return <Schedule schedule={schedule} notice={notice} tell={tell} />;
}

function SignedOut() {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <title>{t`Schedule · Tutorlane`}</title>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">
        <Trans>Schedule</Trans>
      </h1>
      <p className="mt-4 text-slate-700">
        <Trans>
          Your schedule is for registered members with a verified email. Create an account, or sign in and
          verify your email, to see it.
        </Trans>
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to={paths.signup}>
          <Trans>Create Account</Trans>
        </ButtonLink>
        <ButtonLink to={paths.login} variant="secondary">
          <Trans>Sign In</Trans>
        </ButtonLink>
      </div>
    </div>
  );
}

function Schedule({
  schedule,
  notice,
  tell,
}: {
  schedule: ScheduleData;
  notice: Notice | null;
  tell: (text: string) => void;
}) {
  const { t } = useLingui();
  const tutor = schedule.role === 'tutor';
  const requests = schedule.upcoming.filter((lesson) => isRequest(lesson.status));
  const calendar = useCalendarLessons(schedule.weekLessons, schedule.weekSessions, sideOf(schedule.role));
  const nothingAhead = schedule.upcoming.length === 0 && schedule.upcomingSessions.length === 0;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>{t`Schedule · Tutorlane`}</title>
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Schedule</Trans>
        </h1>
        <p className="mt-2 min-h-6 text-slate-700">
          {/* Said here, in the page's language, rather than the server's English `subtitle`. */}
          {tutor
            ? t`Manage your availability and upcoming sessions with students`
            : t`View and manage your upcoming lessons with tutors`}
        </p>
        <div className="mt-1 flex flex-wrap items-baseline gap-x-2">
          <ZoneNote timeZone={schedule.timeZone} />
          <Link
            to={tutor ? paths.availability : paths.profile}
            className="text-sm font-semibold text-brand-700 underline"
          >
            {schedule.timeZoneSaved ? t`Change your time zone` : t`Save your time zone`}
          </Link>
        </div>
      </header>

      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <section
          aria-labelledby="week-heading"
          className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 lg:col-span-3"
        >
          <WeekHeader schedule={schedule} />
          <div className="mt-4">
            <WeekCalendar days={schedule.days} lessons={calendar} timeZone={schedule.timeZone} />
          </div>
          {calendar.length === 0 ? (
            <p className="mt-4 text-sm text-slate-700">
              <Trans>No lessons this week.</Trans>
            </p>
          ) : null}
        </section>

        <div className="space-y-6 lg:col-span-2">
          <ChangeNotice notice={notice} />
          {tutor ? (
            <CardSection title={t`Requests`}>
              {requests.length === 0 ? (
                <p className="text-sm text-slate-700">
                  <Trans>No requests are waiting for your answer.</Trans>
                </p>
              ) : (
                <RequestList requests={requests} schedule={schedule} onChanged={tell} />
              )}
            </CardSection>
          ) : null}
          <CardSection title={t`Upcoming lessons`}>
            {nothingAhead ? (
              <div className="text-sm text-slate-700">
                <p>
                  <Trans>No lessons ahead.</Trans>
                </p>
                {tutor ? (
                  <p className="mt-1">
                    <Trans>
                      Students book the free times of your{' '}
                      <Link to={paths.availability} className="font-semibold text-brand-700 underline">
                        availability
                      </Link>
                      .
                    </Trans>
                  </p>
                ) : (
                  <p className="mt-1">
                    <Trans>
                      <Link to={paths.tutors} className="font-semibold text-brand-700 underline">
                        Find a tutor
                      </Link>{' '}
                      and book a time on their page.
                    </Trans>
                  </p>
                )}
              </div>
            ) : (
              <LessonList
                lessons={
                  tutor ? schedule.upcoming.filter((lesson) => !isRequest(lesson.status)) : schedule.upcoming
                }
                sessions={schedule.upcomingSessions}
                schedule={schedule}
                onChanged={tell}
              />
            )}
          </CardSection>
          <CardSection title={t`Recent lessons`}>
            {schedule.recent.length === 0 ? (
              <p className="text-sm text-slate-700">
                {tutor ? (
                  <Trans>
                    Lessons of the last 30 days appear here once they have taken place, for you to write what
                    was covered and the homework.
                  </Trans>
                ) : (
                  <Trans>
                    Lessons of the last 30 days appear here once they have taken place, with your tutor’s
                    notes.
                  </Trans>
                )}
              </p>
            ) : (
              <RecentLessons lessons={schedule.recent} schedule={schedule} />
            )}
          </CardSection>
        </div>
        <div className="space-y-6">
          <CardSection title={t`Quick actions`}>
            {tutor ? (
              <ButtonLink to={paths.availability} variant="secondary" className="w-full">
                <Trans>Set Availability</Trans>
              </ButtonLink>
            ) : (
              <ButtonLink to={paths.tutors} variant="secondary" className="w-full">
                <Trans>Book a Lesson</Trans>
              </ButtonLink>
            )}
          </CardSection>
          <ReviewInvites tutors={schedule.toReview} />
          <CalendarFeedCard url={schedule.feedUrl} />
        </div>
      </div>
    </div>
  );
}

function WeekHeader({ schedule }: { schedule: ScheduleData }) {
  const { t } = useLingui();
  const { monday, timeZone } = schedule;
  const today = localDate(Date.now(), timeZone);
  const weekLink = (date: string) => `${paths.schedule}?week=${date}`;
  const label = `${shortDayLabel(startOfLocalDay(monday, timeZone), timeZone)} – ${shortDayLabel(
    startOfLocalDay(addDays(monday, 6), timeZone),
    timeZone,
  )}`;
  const isThisWeek = schedule.days.includes(today);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 id="week-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Week of {label}</Trans>
      </h2>
      <nav aria-label={t`Weeks`} className="flex gap-2">
        <ButtonLink to={weekLink(addDays(monday, -7))} variant="secondary">
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            ←
          </span>{' '}
          <Trans>Previous week</Trans>
        </ButtonLink>
        {isThisWeek ? null : (
          <ButtonLink to={paths.schedule} variant="secondary">
            <Trans>This week</Trans>
          </ButtonLink>
        )}
        <ButtonLink to={weekLink(addDays(monday, 7))} variant="secondary">
          <Trans>Next week</Trans>{' '}
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            →
          </span>
        </ButtonLink>
      </nav>
    </div>
  );
}

/** The tutor's requests: each single one with its actions, a weekly series' once, with all its weeks. */
function RequestList({
  requests,
  schedule,
  onChanged,
}: {
  requests: Lesson[];
  schedule: ScheduleData;
  onChanged: (notice: string) => void;
}) {
  return (
    <ul className="divide-y divide-slate-100">
      {groupRequests(requests).map((item) =>
        item.kind === 'single' ? (
          <LessonItem key={item.lesson.id} lesson={item.lesson} schedule={schedule} onChanged={onChanged} />
        ) : (
          <li key={item.id} className="py-4 first:pt-0 last:pb-0">
            <SeriesRequest
              id={item.id}
              lessons={item.lessons}
              timeZone={schedule.timeZone}
              onChanged={onChanged}
            />
          </li>
        ),
      )}
    </ul>
  );
}

/** The lessons ahead, with the tutor's class sessions among them by start. */
function LessonList({
  lessons,
  sessions,
  schedule,
  onChanged,
}: {
  lessons: Lesson[];
  sessions: TaughtSession[];
  schedule: ScheduleData;
  onChanged: (notice: string) => void;
}) {
  const items = [
    ...lessons.map((lesson) => ({ start: lesson.start, lesson, session: null })),
    ...sessions.map((session) => ({ start: session.start, lesson: null, session })),
  ].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  return (
    <ul className="divide-y divide-slate-100">
      {items.map(({ lesson, session }) =>
        session ? (
          <TaughtSessionItem key={session.id} session={session} timeZone={schedule.timeZone} />
        ) : lesson?.classSession ? (
          <SeatItem key={lesson.id} lesson={lesson} timeZone={schedule.timeZone} />
        ) : lesson ? (
          <LessonItem key={lesson.id} lesson={lesson} schedule={schedule} onChanged={onChanged} />
        ) : null,
      )}
    </ul>
  );
}

function LessonItem({
  lesson,
  schedule,
  onChanged,
}: {
  lesson: Lesson;
  schedule: ScheduleData;
  onChanged: (notice: string) => void;
}) {
  const { timeZone } = schedule;
  const role = sideOf(schedule.role);
  const other = role === 'tutor' ? lesson.student : lesson.tutor;
  const planned = isPlanned(lesson.status);
  const subject = lesson.subject;
  const name = other.displayName;
  const minutes = lesson.minutes;
  const note = lesson.note;
  return (
    <li className="py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-semibold text-slate-900">
          <Trans>
            {subject} with {name}
          </Trans>
        </p>
        <StatusBadge status={lesson.status} />
        {lesson.seriesId ? <WeeklyBadge /> : null}
        <PaymentBadge payment={lesson.payment} reader={role} />
        <FamilyBadge lesson={lesson} reader={schedule.role} />
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)} ·{' '}
        <Trans>{minutes} min</Trans> · {formatAmount(lesson.price.amountCents, lesson.price.currency)}
      </p>
      {note ? (
        <p className="mt-1 text-sm text-slate-600">
          <Trans>Note: {note}</Trans>
        </p>
      ) : null}
      <RoomLink lesson={lesson} />
      <Link
        to={`${paths.messages}?to=${encodeURIComponent(other.id)}`}
        state={{ name: other.displayName }}
        className="mt-1 inline-block text-sm font-semibold text-brand-700 underline"
      >
        <Trans>Message {name}</Trans>
      </Link>
      <LessonActions lesson={lesson} role={role} timeZone={timeZone} onChanged={onChanged} />
      {lesson.seriesId && planned ? (
        <CancelRestOfSeries lesson={lesson} other={other.displayName} onChanged={onChanged} />
      ) : null}
    </li>
  );
}

/** Lessons that took place: the tutor writes their notes, the student reads them. */
function RecentLessons({ lessons, schedule }: { lessons: Lesson[]; schedule: ScheduleData }) {
  const { t } = useLingui();
  const { timeZone } = schedule;
  const role = sideOf(schedule.role);
  return (
    <ul className="divide-y divide-slate-100">
      {lessons.map((lesson) => {
        const other = role === 'tutor' ? lesson.student : lesson.tutor;
        const when = lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone);
        // A class's seat is named after the class (and enrolled in again on its page).
        const subject = lesson.classSession?.title ?? lesson.subject;
        const name = other.displayName;
        return (
          <li key={lesson.id} className="py-4 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-center gap-2">
              <p className="font-semibold text-slate-900">
                <Trans>
                  {subject} with {name}
                </Trans>
              </p>
              <PaymentBadge payment={lesson.payment} reader={role} />
              <FamilyBadge lesson={lesson} reader={schedule.role} />
            </div>
            <p className="mt-1 text-sm text-slate-700">{when}</p>
            {role === 'tutor' ? (
              <NotesEditor
                lessonId={lesson.id}
                notes={lesson.notes}
                lessonName={t`${subject} with ${name}, ${when}`}
              />
            ) : lesson.notes ? (
              <NotesView notes={lesson.notes} className="mt-2" />
            ) : (
              <p className="mt-1 text-sm text-slate-600">
                <Trans>Your tutor has not written notes on this lesson yet.</Trans>
              </p>
            )}
            <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
              <Link
                to={role === 'tutor' ? studentPath(other.id) : tutorLessonsPath(other.id)}
                className="text-sm font-semibold text-brand-700 underline"
              >
                <Trans>All lessons with {name}</Trans>
              </Link>
              {role === 'student' && !lesson.classSession ? (
                <Link
                  to={bookAgainPath({ ...lesson, tutorId: other.id }, Date.now(), timeZone)}
                  className="text-sm font-semibold text-brand-700 underline"
                  aria-label={t`Book ${subject} with ${name} again`}
                >
                  <Trans>Book again</Trans>
                </Link>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
