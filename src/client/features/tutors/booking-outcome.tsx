/** What came of a booking, told above the days: booked or requested, a weekly series, or a refusal. */
import { Link } from 'react-router';
import { paths } from '../../../shared/routes';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { lessonTimeLabel } from '../../lib/time-labels';

export type Booked = { kind: 'booked'; status: string; start: string; end: string };
/** A weekly series booked: its lessons, and how many weeks it skipped. */
export type BookedSeries = {
  kind: 'series';
  status: string;
  lessons: { id: string; start: string; end: string }[];
  skipped: number;
};
export type Outcome = Booked | BookedSeries | { kind: 'failed'; message: string };

export function BookingOutcome({
  outcome,
  timeZone,
  firstName,
}: {
  outcome: Outcome | null;
  timeZone: string;
  firstName: string;
}) {
  return (
    <>
      {outcome?.kind === 'booked' ? (
        <div className="mt-4">
          <StatusMessage>
            {outcome.status === 'pending' ? 'Request sent' : 'Booked'}:{' '}
            {lessonTimeLabel(Date.parse(outcome.start), Date.parse(outcome.end), timeZone)}.{' '}
            {outcome.status === 'pending'
              ? `${firstName} has 48 hours to accept; we will mail you the answer.`
              : 'A confirmation with a calendar invitation is on its way to your inbox.'}{' '}
            <Link to={paths.schedule} className="font-semibold underline">
              See your schedule
            </Link>
          </StatusMessage>
        </div>
      ) : null}
      {outcome?.kind === 'series' ? (
        <div className="mt-4">
          <StatusMessage>
            <p>
              {outcome.status === 'pending'
                ? `Weekly request sent for ${outcome.lessons.length} lessons. ${firstName} has 48 hours to accept them; we will mail you the answer.`
                : `Booked every week: ${outcome.lessons.length} lessons. A confirmation with a calendar invitation is on its way to your inbox.`}
              {outcome.skipped > 0
                ? ` ${outcome.skipped} ${outcome.skipped === 1 ? 'week was' : 'weeks were'} not free and ${outcome.skipped === 1 ? 'is' : 'are'} not booked.`
                : ''}
            </p>
            <ul className="mt-2 list-disc space-y-0.5 ps-5">
              {outcome.lessons.map((lesson) => (
                <li key={lesson.id}>
                  {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)}
                </li>
              ))}
            </ul>
            <Link to={paths.schedule} className="mt-2 inline-block font-semibold underline">
              See your schedule
            </Link>
          </StatusMessage>
        </div>
      ) : null}
      {outcome?.kind === 'failed' ? (
        <div className="mt-4">
          <ErrorMessage>{outcome.message}</ErrorMessage>
        </div>
      ) : null}
    </>
  );
}
