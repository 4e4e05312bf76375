import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { mayMarkNoShow } from '../../../shared/lessons/room-rules';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { StatusBadge } from '../../components/lesson-parts';
import { ErrorMessage } from '../../components/messages';
import { NotFound } from '../../components/not-found';
import { ZoneNote } from '../../components/zone-note';
import { ApiError, api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import { instantLabel, lessonTimeLabel } from '../../lib/time-labels';
import { useAuth } from '../auth';
import { type LessonInfo, whyNoRoom } from './no-room';
import { PreJoin } from './pre-join';
import { Notice, useReloadAt, useViewerTimeZone } from './room-parts';
import { type RoomInfo, RoomView } from './room-view';

const isStatus = (error: unknown, status: number) => error instanceof ApiError && error.status === status;

export async function loader({ params, request: page }: LoaderFunctionArgs) {
  const input = { param: { id: params.id ?? '' } };
  const init = { init: { signal: page.signal } };
  try {
    return { room: await request(api.lessons[':id'].room.$get(input, init)), lesson: null };
  } catch (error) {
    if (isStatus(error, 404)) return { room: null, lesson: null };
    if (!isStatus(error, 409)) throw error;
  }
  // No room (409): the lesson itself tells why.
  try {
    return { room: null, lesson: await request(api.lessons[':id'].$get(input, init)) };
  } catch (error) {
    if (isStatus(error, 404)) return { room: null, lesson: null };
    throw error;
  }
}

export function Component() {
  const { room, lesson } = useLoaderData<typeof loader>();
  if (room) return <Room room={room} />;
  if (lesson) return <NoRoom lesson={lesson} />;
  return <NotFound />;
}

function Room({ room }: { room: RoomInfo }) {
  const { t } = useLingui();
  const timeZone = useViewerTimeZone();
  const { lesson } = room;
  const other = room.you === 'tutor' ? lesson.student : lesson.tutor;
  const [joined, setJoined] = useState<MediaStream | null | undefined>(undefined);
  useReloadAt(
    room.state === 'not-open'
      ? Date.parse(room.opensAt)
      : room.state === 'open'
        ? Date.parse(room.closesAt)
        : null,
  );
  const subject = translated(lesson.subject);
  const name = other.displayName;
  const title = t`${subject} with ${name}`;
  const opens = instantLabel(Date.parse(room.opensAt), timeZone);

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <title>{t`${title} · Lesson room · Tutorlane`}</title>
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        <StatusBadge status={lesson.status} />
        <p className="w-full text-sm text-slate-700">
          {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)}
        </p>
      </header>
      <div className="mt-6">
        {room.state === 'not-open' ? (
          <Notice>
            <p className="font-semibold text-slate-900">
              <Trans>The room is not open yet.</Trans>
            </p>
            <p className="mt-1">
              <Trans>It opens {opens}, 10 minutes before the lesson. This page opens it by itself.</Trans>
            </p>
          </Notice>
        ) : room.state === 'ended' ? (
          <Ended room={room} otherName={other.displayName} />
        ) : joined === undefined ? (
          <PreJoin onJoin={setJoined} />
        ) : (
          <RoomView room={room} local={joined} onLeft={() => setJoined(undefined)} />
        )}
      </div>
    </div>
  );
}

function Ended({ room, otherName }: { room: RoomInfo; otherName: string }) {
  const { t } = useLingui();
  const { problem, run } = useApiAction(t`That did not work. Please try again.`);
  const { lesson, attendance } = room;
  const studentJoined = attendance.student !== null;
  const canMark =
    room.you === 'tutor' &&
    mayMarkNoShow({ end: Date.parse(lesson.end), status: lesson.status }, studentJoined, Date.now());
  const name = otherName;
  const mine = room.you === 'tutor' ? attendance.tutor : attendance.student;
  const theirs = room.you === 'tutor' ? attendance.student : attendance.tutor;
  const markNoShow = () =>
    run(() => request(api.lessons[':id']['no-show'].$post({ param: { id: lesson.id } })));
  return (
    <Notice>
      <p className="font-semibold text-slate-900">
        <Trans>This lesson has ended, and its room is closed.</Trans>
      </p>
      <p className="mt-1">
        {mine ? t`You joined.` : t`You did not join.`}{' '}
        {theirs ? t`${name} joined.` : t`${name} did not join.`}
      </p>
      {problem ? (
        <div className="mt-3">
          <ErrorMessage>{problem}</ErrorMessage>
        </div>
      ) : null}
      {canMark ? (
        <Button variant="secondary" className="mt-4" onClick={markNoShow}>
          <Trans>Mark {name} as a no-show</Trans>
        </Button>
      ) : null}
      <p className="mt-4">
        <Link to={paths.schedule} className="font-semibold text-brand-700 underline">
          <Trans>Back to your schedule</Trans>
        </Link>
      </p>
    </Notice>
  );
}

/** A lesson that has no room (not confirmed, or no longer): what happened to it, in words. */
function NoRoom({ lesson }: { lesson: LessonInfo }) {
  const { t } = useLingui();
  const auth = useAuth();
  const timeZone = useViewerTimeZone();
  const you = auth.user?.id === lesson.tutor.id ? 'tutor' : 'student';
  const other = you === 'tutor' ? lesson.student : lesson.tutor;
  const { headline, details } = whyNoRoom(lesson, you, timeZone);
  const subject = translated(lesson.subject);
  const name = other.displayName;
  const title = t`${subject} with ${name}`;
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-8">
      <title>{t`${title} · Lesson room · Tutorlane`}</title>
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h1 className="wrap-break-word text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {title}
        </h1>
        <StatusBadge status={lesson.status} />
        <p className="w-full text-sm text-slate-700">
          {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)}
        </p>
        <ZoneNote timeZone={timeZone} className="w-full" />
      </header>
      <div className="mt-6">
        <Notice>
          <p className="font-semibold text-slate-900">{headline}</p>
          {details.map((line) => (
            <p key={line} className="mt-1 wrap-break-word">
              {line}
            </p>
          ))}
          <p className="mt-4">
            <Link to={paths.schedule} className="font-semibold text-brand-700 underline">
              <Trans>Back to your schedule</Trans>
            </Link>
          </p>
        </Notice>
      </div>
    </div>
  );
}
