/**
 * A class session's room (/classes/:id/sessions/:sessionId/room): for the class's tutor and the
 * students holding a seat in the session, open from 10 minutes before it starts until 30 minutes
 * after it ends, as a lesson's room is. Before it opens and after it closes the page says so (and
 * opens or closes by itself); anyone else gets the Not Found page.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { paths } from '../../../shared/routes';
import { NotFound } from '../../components/not-found';
import { ApiError, api, request } from '../../lib/api';
import { translated } from '../../lib/i18n';
import { instantLabel, lessonTimeLabel } from '../../lib/time-labels';
import { useAuth } from '../auth';
import { type ClassRoomInfo, ClassRoomView } from './class-room-view';
import { PreJoin } from './pre-join';
import { Notice, useReloadAt, useViewerTimeZone } from './room-parts';

export async function loader({ params, request: page }: LoaderFunctionArgs) {
  const param = { id: params.id ?? '', sessionId: params.sessionId ?? '' };
  try {
    const room = await request(
      api.classes[':id'].sessions[':sessionId'].room.$get({ param }, { init: { signal: page.signal } }),
    );
    return { room, noRoom: null };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) return { room: null, noRoom: null };
    // A cancelled session: the server says so in the reader's language.
    if (error.status === 409) return { room: null, noRoom: error.message };
    throw error;
  }
}

export function Component() {
  const { room, noRoom } = useLoaderData<typeof loader>();
  const { t } = useLingui();
  if (room) return <Room room={room} />;
  if (!noRoom) return <NotFound />;
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-8">
      <title>{t`Class room · Tutorlane`}</title>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        <Trans>Class room</Trans>
      </h1>
      <div className="mt-6">
        <Notice>
          <p className="font-semibold text-slate-900">{noRoom}</p>
          <BackToSchedule />
        </Notice>
      </div>
    </div>
  );
}

function Room({ room }: { room: ClassRoomInfo }) {
  const { t } = useLingui();
  const auth = useAuth();
  const timeZone = useViewerTimeZone();
  const [joined, setJoined] = useState<MediaStream | null | undefined>(undefined);
  useReloadAt(
    room.state === 'not-open'
      ? Date.parse(room.opensAt)
      : room.state === 'open'
        ? Date.parse(room.closesAt)
        : null,
  );
  const title = room.class.title;
  const subject = translated(room.class.subject);
  const opens = instantLabel(Date.parse(room.opensAt), timeZone);

  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <title>{t`${title} · Class room · Tutorlane`}</title>
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h1 className="wrap-break-word text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {title}
        </h1>
        <p className="w-full text-sm text-slate-700">
          {subject} ·{' '}
          {lessonTimeLabel(Date.parse(room.session.start), Date.parse(room.session.end), timeZone)}
        </p>
      </header>
      <div className="mt-6">
        {room.state === 'not-open' ? (
          <Notice>
            <p className="font-semibold text-slate-900">
              <Trans>The room is not open yet.</Trans>
            </p>
            <p className="mt-1">
              <Trans>It opens {opens}, 10 minutes before the session. This page opens it by itself.</Trans>
            </p>
          </Notice>
        ) : room.state === 'ended' ? (
          <Notice>
            <p className="font-semibold text-slate-900">
              <Trans>This session has ended, and its room is closed.</Trans>
            </p>
            <BackToSchedule />
          </Notice>
        ) : joined === undefined || !auth.user ? (
          <PreJoin onJoin={setJoined} />
        ) : (
          <ClassRoomView
            room={room}
            youId={auth.user.id}
            local={joined}
            onLeft={() => setJoined(undefined)}
          />
        )}
      </div>
    </div>
  );
}

function BackToSchedule() {
  return (
    <p className="mt-4">
      <Link to={paths.schedule} className="font-semibold text-brand-700 underline">
        <Trans>Back to your schedule</Trans>
      </Link>
    </p>
  );
}
