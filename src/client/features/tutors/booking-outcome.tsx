/** What came of a booking, told above the days: booked or requested, a weekly series, or a refusal. */
import { Plural, Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { paths } from '../../../shared/routes';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { translated } from '../../lib/i18n';
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
  const time =
    outcome?.kind === 'booked'
      ? lessonTimeLabel(Date.parse(outcome.start), Date.parse(outcome.end), timeZone)
      : '';
  const count = outcome?.kind === 'series' ? outcome.lessons.length : 0;
  const skipped = outcome?.kind === 'series' ? outcome.skipped : 0;
  return (
    <>
      {outcome?.kind === 'booked' ? (
        <div className="mt-4">
          <StatusMessage>
            {outcome.status === 'pending' ? (
              <Trans>
                Request sent: <bdi>{time}</bdi>. {firstName} has 48 hours to accept; we will mail you the
                answer.
              </Trans>
            ) : (
              <Trans>
                Booked: <bdi>{time}</bdi>. A confirmation with a calendar invitation is on its way to your
                inbox.
              </Trans>
            )}{' '}
            <Link to={paths.schedule} className="font-semibold underline">
              <Trans>See your schedule</Trans>
            </Link>
          </StatusMessage>
        </div>
      ) : null}
      {outcome?.kind === 'series' ? (
        <div className="mt-4">
          <StatusMessage>
            <p>
              {outcome.status === 'pending' ? (
                <Plural
                  value={count}
                  one={`Weekly request sent for # lesson. ${firstName} has 48 hours to accept it; we will mail you the answer.`}
                  other={`Weekly request sent for # lessons. ${firstName} has 48 hours to accept them; we will mail you the answer.`}
                />
              ) : (
                <Plural
                  value={count}
                  one="Booked every week: # lesson. A confirmation with a calendar invitation is on its way to your inbox."
                  other="Booked every week: # lessons. A confirmation with a calendar invitation is on its way to your inbox."
                />
              )}
              {skipped > 0 ? (
                <>
                  {' '}
                  <Plural
                    value={skipped}
                    one="# week was not free and is not booked."
                    other="# weeks were not free and are not booked."
                  />
                </>
              ) : null}
            </p>
            <ul className="mt-2 list-disc space-y-0.5 ps-5">
              {outcome.lessons.map((lesson) => (
                <li key={lesson.id}>
                  <bdi>{lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)}</bdi>
                </li>
              ))}
            </ul>
            <Link to={paths.schedule} className="mt-2 inline-block font-semibold underline">
              <Trans>See your schedule</Trans>
            </Link>
          </StatusMessage>
        </div>
      ) : null}
      {outcome?.kind === 'failed' ? (
        <div className="mt-4">
          <ErrorMessage>{translated(outcome.message)}</ErrorMessage>
        </div>
      ) : null}
    </>
  );
}
