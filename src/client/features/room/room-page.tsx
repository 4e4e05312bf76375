/**
 * /lessons/:id/room: a confirmed lesson's room, for its tutor and its student only (anyone else
 * sees the Not Found page). Before it opens it says when; after, that the lesson has ended and
 * who joined (and the tutor may mark a student who never came as a no-show); while open, the
 * pre-join screen (camera preview, devices), then the call with its chat.
 */
import type { InferResponseType } from 'hono/client';
import { useEffect, useState } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator } from 'react-router';
import { mayMarkNoShow } from '../../../shared/lessons/room-rules';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { NotFound } from '../../components/not-found';
import { ApiError, api, failureMessage, request } from '../../lib/api';
import { instantLabel, lessonTimeLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';
import { StatusBadge } from '../lessons/lesson-parts';
import { PreJoin } from './pre-join';
import { RoomView } from './room-view';

export type RoomInfo = InferResponseType<(typeof api.lessons)[':id']['room']['$get'], 200>;

export async function loader({ params, request: page }: LoaderFunctionArgs) {
  try {
    const room = await request(
      api.lessons[':id'].room.$get({ param: { id: params.id ?? '' } }, { init: { signal: page.signal } }),
    );
    return { room, problem: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { room: null, problem: null };
    if (error instanceof ApiError && error.status === 409) return { room: null, problem: error.message };
    throw error;
  }
}

/** Loads the page again when the room opens or closes, so nobody has to reload it. */
function useReloadAt(at: number | null) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (at === null) return;
    // Timers are capped at about 24 days; a room further ahead is looked at again tomorrow.
    const timer = setTimeout(
      () => revalidator.revalidate(),
      Math.min(Math.max(at - Date.now(), 0) + 500, 86_400_000),
    );
    return () => clearTimeout(timer);
  }, [at, revalidator]);
}

export function Component() {
  const { room, problem } = useLoaderData<typeof loader>();
  if (problem) return <Closed title="No room for this lesson" text={problem} />;
  if (!room) return <NotFound />;
  return <Room room={room} />;
}

function Room({ room }: { room: RoomInfo }) {
  const timeZone = browserTimeZone();
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
  const title = `${lesson.subject} with ${other.displayName}`;

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <title>{`${title} · Lesson room · Tutorlane`}</title>
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
            <p className="font-semibold text-slate-900">The room is not open yet.</p>
            <p className="mt-1">
              It opens {instantLabel(Date.parse(room.opensAt), timeZone)}, 10 minutes before the lesson. This
              page opens it by itself.
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
  const revalidator = useRevalidator();
  const [problem, setProblem] = useState<string | null>(null);
  const { lesson, attendance } = room;
  const studentJoined = attendance.student !== null;
  const canMark =
    room.you === 'tutor' &&
    mayMarkNoShow({ end: Date.parse(lesson.end), status: lesson.status }, studentJoined, Date.now());
  const joinedText = (at: string | null, who: string) => (at ? `${who} joined.` : `${who} did not join.`);
  async function markNoShow() {
    try {
      await request(api.lessons[':id']['no-show'].$post({ param: { id: lesson.id } }));
      revalidator.revalidate();
    } catch (error) {
      setProblem(failureMessage(error, 'That did not work. Please try again.'));
    }
  }
  return (
    <Notice>
      <p className="font-semibold text-slate-900">This lesson has ended, and its room is closed.</p>
      <p className="mt-1">
        {joinedText(room.you === 'tutor' ? attendance.tutor : attendance.student, 'You')}{' '}
        {joinedText(room.you === 'tutor' ? attendance.student : attendance.tutor, otherName)}
      </p>
      {problem ? (
        <div className="mt-3">
          <ErrorMessage>{problem}</ErrorMessage>
        </div>
      ) : null}
      {canMark ? (
        <Button variant="secondary" className="mt-4" onClick={markNoShow}>
          Mark {otherName} as a no-show
        </Button>
      ) : null}
      <p className="mt-4">
        <Link to={paths.schedule} className="font-semibold text-brand-700 underline">
          Back to your schedule
        </Link>
      </p>
    </Notice>
  );
}

function Closed({ title, text }: { title: string; text: string }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <title>{`${title} · Tutorlane`}</title>
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      <p className="mt-3 text-slate-700">{text}</p>
      <Link to={paths.schedule} className="mt-6 inline-block font-semibold text-brand-700 underline">
        Back to your schedule
      </Link>
    </div>
  );
}

function Notice({ children }: { children: React.ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 text-slate-700 shadow-sm">
      {children}
    </div>
  );
}
