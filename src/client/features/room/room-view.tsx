/**
 * The call: the other participant's video, this side's own, the controls (Mute and Stop video are
 * toggles, pressed while off; Share screen replaces the camera and gives it back; Leave), what the
 * other side is doing (connecting, connected, reconnecting, left; muted, camera off, sharing),
 * and the chat beside it, kept with the lesson.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, request } from '../../lib/api';
import { Call, type PeerState, type RemoteMedia } from './call';
import { CallControls, useLocalMedia, useOwnVideo, useStream } from './local-media';
import { type ChatSource, RoomChat } from './room-chat';
import { usePeerText } from './room-parts';
import { openSignals } from './room-signals';

/** The lesson and the people in its room, as the server gives them. */
export type RoomInfo = InferResponseType<(typeof api.lessons)[':id']['room']['$get'], 200>;

export function RoomView({
  room,
  local,
  onLeft,
}: {
  room: RoomInfo;
  local: MediaStream | null;
  onLeft: () => void;
}) {
  const lessonId = room.lesson.id;
  const { t } = useLingui();
  const other = room.you === 'tutor' ? room.lesson.student : room.lesson.tutor;
  const name = other.displayName;
  const describe = usePeerText('lesson');
  const peerText = (state: PeerState) => describe(state, name);
  const [peerState, setPeerState] = useState<PeerState>('waiting');
  const [remote, setRemote] = useState<MediaStream | null>(null);
  const [remoteMedia, setRemoteMedia] = useState<RemoteMedia>({
    muted: false,
    videoOff: false,
    sharing: false,
  });
  const call = useRef<Call | null>(null);
  const remoteVideo = useRef<HTMLVideoElement>(null);
  const localVideo = useRef<HTMLVideoElement>(null);
  const media = useLocalMedia(local, () => call.current);
  const { videoOff, screen } = media;

  useEffect(() => {
    const signals = openSignals(
      lessonId,
      (from, signal) => call.current?.receive(from, signal),
      () => void call.current?.rejoin().catch(() => undefined),
    );
    const current = new Call(signals, {
      polite: room.you === 'student',
      iceServers: room.iceServers,
      local,
      events: { onPeerState: setPeerState, onRemoteStream: setRemote, onRemoteMedia: setRemoteMedia },
    });
    call.current = current;
    const initial = {
      muted: !local?.getAudioTracks().length,
      videoOff: !local?.getVideoTracks().length,
      sharing: false,
    };
    void request(api.lessons[':id'].room.join.$post({ param: { id: lessonId } }))
      .then(() => current.join(initial))
      .catch(() => setPeerState('waiting'));
    return () => {
      void current.leave();
      signals.close();
      call.current = null;
    };
  }, [lessonId, local, room.you, room.iceServers]);

  useStream(remoteVideo, remote);
  useOwnVideo(localVideo, media);

  const chat = useMemo<ChatSource>(() => {
    const param = { id: lessonId };
    return {
      load: () => request(api.lessons[':id'].room.chat.$get({ param })).then((answer) => answer.lines),
      say: (text) => request(api.lessons[':id'].room.chat.$post({ param, json: { text } })),
      heard: (frame) => (frame.type === 'room-chat' && frame.lessonId === lessonId ? frame.line : null),
    };
  }, [lessonId]);

  async function leave() {
    await call.current?.leave();
    onLeft();
  }

  const showRemoteVideo =
    remote !== null && peerState !== 'left' && !(remoteMedia.videoOff && !remoteMedia.sharing);
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <section aria-label={t`Video`} className="space-y-3 lg:col-span-2">
        <div className="relative aspect-video overflow-hidden rounded-2xl bg-slate-900">
          {/* biome-ignore lint/a11y/useMediaCaption: a live call has no caption track; the chat beside it is its text channel */}
          <video
            ref={remoteVideo}
            autoPlay
            playsInline
            aria-label={t`${name}’s video`}
            className={`h-full w-full object-contain ${showRemoteVideo ? '' : 'invisible'}`}
          />
          {showRemoteVideo ? null : (
            <p className="absolute inset-0 flex items-center justify-center p-4 text-center text-slate-100">
              {peerState === 'connected' ? t`${name}’s camera is off` : peerText(peerState)}
            </p>
          )}
          <div className="absolute bottom-3 end-3 aspect-video w-28 overflow-hidden rounded-lg border border-slate-600 bg-slate-800 sm:w-44">
            <video
              ref={localVideo}
              autoPlay
              playsInline
              muted
              aria-label={t`Your video`}
              className={`h-full w-full object-cover ${videoOff && !screen ? 'invisible' : ''}`}
            />
          </div>
        </div>
        <div role="status" className="min-h-6 text-sm text-slate-700">
          {peerText(peerState)}
          {peerState === 'connected' && remoteMedia.muted ? ` ${t`${name} is muted.`}` : ''}
          {peerState === 'connected' && remoteMedia.videoOff && !remoteMedia.sharing
            ? ` ${t`${name}’s camera is off.`}`
            : ''}
          {peerState === 'connected' && remoteMedia.sharing ? ` ${t`${name} is sharing their screen.`}` : ''}
        </div>
        <CallControls media={media} onLeave={leave} />
      </section>
      <RoomChat
        source={chat}
        nameOf={(senderId) => (senderId === other.id ? other.displayName : t`You`)}
        label={t`Lesson chat`}
        linesLabel={t`Lesson chat lines`}
        empty={<Trans>Lines written here are kept with the lesson.</Trans>}
      />
    </div>
  );
}
