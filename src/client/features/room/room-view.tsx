/**
 * The call: the other participant's video, this side's own, the controls (Mute and Stop video are
 * toggles, pressed while off; Share screen replaces the camera and gives it back; Leave), what the
 * other side is doing (connecting, connected, reconnecting, left; muted, camera off, sharing),
 * and the chat beside it, kept with the lesson.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_ROOM_CHAT_LENGTH } from '../../../shared/lessons/room-rules';
import { Button } from '../../components/button';
import { Composer } from '../../components/composer';
import { MessageText } from '../../components/message-text';
import { api, request } from '../../lib/api';
import { live, type RoomChatLine } from '../../lib/live';
import { sentLabel } from '../messages';
import { Call, type PeerState, type RemoteMedia } from './call';
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
  /** What the other side is doing, in words. */
  const peerText = (state: PeerState) => {
    switch (state) {
      case 'waiting':
        return t`Waiting for ${name} to join…`;
      case 'connecting':
        return t`Connecting to ${name}…`;
      case 'connected':
        return t`Connected with ${name}.`;
      case 'reconnecting':
        return t`The connection to ${name} dropped. Reconnecting…`;
      case 'left':
        return t`${name} left the lesson.`;
    }
  };
  const [peerState, setPeerState] = useState<PeerState>('waiting');
  const [remote, setRemote] = useState<MediaStream | null>(null);
  const [remoteMedia, setRemoteMedia] = useState<RemoteMedia>({
    muted: false,
    videoOff: false,
    sharing: false,
  });
  const [muted, setMuted] = useState(!local?.getAudioTracks().length);
  const [videoOff, setVideoOff] = useState(!local?.getVideoTracks().length);
  const [screen, setScreen] = useState<MediaStreamTrack | null>(null);
  const call = useRef<Call | null>(null);
  const remoteVideo = useRef<HTMLVideoElement>(null);
  const localVideo = useRef<HTMLVideoElement>(null);
  const camera = local?.getVideoTracks()[0] ?? null;
  const microphone = local?.getAudioTracks()[0] ?? null;

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
    const media = {
      muted: !local?.getAudioTracks().length,
      videoOff: !local?.getVideoTracks().length,
      sharing: false,
    };
    void request(api.lessons[':id'].room.join.$post({ param: { id: lessonId } }))
      .then(() => current.join(media))
      .catch(() => setPeerState('waiting'));
    return () => {
      void current.leave();
      signals.close();
      call.current = null;
    };
  }, [lessonId, local, room.you, room.iceServers]);

  // The camera and microphone go off when the room closes. Stopped a moment later, and only if
  // the room did not come straight back: React's development mode remounts every component once.
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      setTimeout(() => {
        if (!mounted.current) for (const track of local?.getTracks() ?? []) track.stop();
      }, 0);
    };
  }, [local]);

  useEffect(() => {
    if (remoteVideo.current) remoteVideo.current.srcObject = remote;
  }, [remote]);
  useEffect(() => {
    if (localVideo.current) localVideo.current.srcObject = screen ? new MediaStream([screen]) : local;
  }, [local, screen]);

  const announce = (next: Partial<RemoteMedia>) =>
    void call.current
      ?.announce({ muted, videoOff, sharing: screen !== null, ...next })
      .catch(() => undefined);

  function toggleMute() {
    if (!microphone) return;
    microphone.enabled = muted;
    setMuted(!muted);
    announce({ muted: !muted });
  }
  function toggleVideo() {
    if (!camera) return;
    camera.enabled = videoOff;
    setVideoOff(!videoOff);
    announce({ videoOff: !videoOff });
  }
  async function toggleScreen() {
    if (screen) {
      screen.stop();
      await stopSharing();
      return;
    }
    try {
      const shared = await navigator.mediaDevices.getDisplayMedia({ video: true });
      const track = shared.getVideoTracks()[0];
      if (!track) return;
      // The browser's own "Stop sharing" ends the track: the camera comes back then too.
      track.onended = () => void stopSharing();
      await call.current?.sendVideo(track);
      setScreen(track);
      announce({ sharing: true });
    } catch {
      // The person chose not to share: nothing changes.
    }
  }
  async function stopSharing() {
    await call.current?.sendVideo(camera);
    setScreen(null);
    announce({ sharing: false });
  }
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
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" aria-pressed={muted} onClick={toggleMute} disabled={!microphone}>
            <Trans>Mute</Trans>
          </Button>
          <Button variant="secondary" aria-pressed={videoOff} onClick={toggleVideo} disabled={!camera}>
            <Trans>Stop video</Trans>
          </Button>
          {typeof navigator.mediaDevices?.getDisplayMedia === 'function' ? (
            <Button variant="secondary" aria-pressed={screen !== null} onClick={toggleScreen}>
              <Trans>Share screen</Trans>
            </Button>
          ) : null}
          <Button variant="danger" onClick={leave}>
            <Trans>Leave</Trans>
          </Button>
        </div>
      </section>
      <RoomChat
        lessonId={lessonId}
        youId={room.you === 'tutor' ? room.lesson.tutor.id : room.lesson.student.id}
        otherName={other.displayName}
      />
    </div>
  );
}

function RoomChat({ lessonId, youId, otherName }: { lessonId: string; youId: string; otherName: string }) {
  const { t } = useLingui();
  const [lines, setLines] = useState<RoomChatLine[]>([]);
  const add = useCallback(
    (added: RoomChatLine[]) =>
      setLines((current) => {
        const known = new Set(current.map((line) => line.id));
        const fresh = added.filter((line) => !known.has(line.id));
        return fresh.length ? [...current, ...fresh].sort((a, b) => a.id - b.id) : current;
      }),
    [],
  );
  useEffect(() => {
    const load = () =>
      request(api.lessons[':id'].room.chat.$get({ param: { id: lessonId } }))
        .then((answer) => add(answer.lines))
        .catch(() => undefined);
    const unsubscribe = live.subscribe((frame) => {
      if (frame.type === 'ready') void load();
      if (frame.type === 'room-chat' && frame.lessonId === lessonId) add([frame.line]);
    });
    void load();
    return unsubscribe;
  }, [lessonId, add]);

  async function send(text: string) {
    add([await request(api.lessons[':id'].room.chat.$post({ param: { id: lessonId }, json: { text } }))]);
  }

  return (
    <section
      aria-label={t`Lesson chat`}
      className="flex min-h-80 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm lg:max-h-[32rem]"
    >
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
        <Trans>Chat</Trans>
      </h2>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
        <div role="log" aria-live="polite" aria-label={t`Lesson chat lines`}>
          {lines.length === 0 ? (
            <p className="text-sm text-slate-600">
              <Trans>Lines written here are kept with the lesson.</Trans>
            </p>
          ) : null}
          <ol className="space-y-2">
            {lines.map((line) => (
              <li key={line.id} className="text-sm">
                <span className="font-semibold text-slate-900">
                  {line.senderId === youId ? t`You` : otherName}
                </span>{' '}
                <span className="text-xs text-slate-600">{sentLabel(line.createdAt)}</span>
                <p className="whitespace-pre-wrap break-words text-slate-800">
                  <MessageText text={line.text} />
                </p>
              </li>
            ))}
          </ol>
        </div>
      </div>
      <Composer label={t`Chat message`} send={send} maxLength={MAX_ROOM_CHAT_LENGTH} />
    </section>
  );
}
