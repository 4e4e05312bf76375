/**
 * A class session's call: a tile for every person in the room (this side's own first), each
 * showing their camera or shared screen, their name, and whether they are muted, have their
 * camera off, are sharing, or are still on their way; the controls the lesson room has; and the
 * chat kept with the session.
 *
 * The tutor may mute a student for everyone. The student's page turns the microphone off and says
 * who did it; the student may turn it back on (a tutor may ask someone to be quiet, but never
 * switch a person's microphone on). The other pages stop playing that student at once, and play
 * them again when their page says they unmuted, so a page that ignored the mute is silent too.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { StatusMessage } from '../../components/messages';
import { api, request } from '../../lib/api';
import { live } from '../../lib/live';
import type { PeerState, RemoteMedia } from './call';
import { CallControls, type LocalMedia, useLocalMedia, useOwnVideo, useStream } from './local-media';
import { Mesh } from './mesh';
import { type ChatSource, RoomChat } from './room-chat';
import { usePeerText } from './room-parts';
import { openClassSignals } from './room-signals';

/** A class session's room, as the server gives it. */
export type ClassRoomInfo = InferResponseType<
  (typeof api.classes)[':id']['sessions'][':sessionId']['room']['$get'],
  200
>;
type Person = ClassRoomInfo['people'][number];

interface Peer {
  state: PeerState;
  stream: MediaStream | null;
  media: RemoteMedia;
}
const newPeer: Peer = {
  state: 'waiting',
  stream: null,
  media: { muted: false, videoOff: false, sharing: false },
};

export function ClassRoomView({
  room,
  youId,
  local,
  onLeft,
}: {
  room: ClassRoomInfo;
  youId: string;
  local: MediaStream | null;
  onLeft: () => void;
}) {
  const { t } = useLingui();
  const peerText = usePeerText('class');
  const classId = room.class.id;
  const sessionId = room.session.id;
  const others = room.people.filter((person) => person.id !== youId);
  const tutor = room.people.find((person) => person.role === 'tutor');
  const [peers, setPeers] = useState<Record<string, Peer>>({});
  const [mutedBy, setMutedBy] = useState<string | null>(null);
  const mesh = useRef<Mesh | null>(null);
  const media = useLocalMedia(local, () => mesh.current);
  const latestMedia = useRef(media);
  latestMedia.current = media;

  useEffect(() => {
    const update = (userId: string, change: Partial<Peer>) =>
      setPeers((current) => ({ ...current, [userId]: { ...(current[userId] ?? newPeer), ...change } }));
    const channel = openClassSignals(
      { classId, sessionId },
      (from, signal) => mesh.current?.receive(from, signal),
      () => void mesh.current?.rejoin().catch(() => undefined),
    );
    const current = new Mesh(channel, {
      you: { userId: youId, role: room.you },
      iceServers: room.iceServers,
      local,
      events: {
        onPeerState: (userId, state) => update(userId, { state }),
        onRemoteStream: (userId, stream) => update(userId, { stream }),
        onRemoteMedia: (userId, remote) => update(userId, { media: remote }),
      },
    });
    mesh.current = current;
    const initial = {
      muted: !local?.getAudioTracks().length,
      videoOff: !local?.getVideoTracks().length,
      sharing: false,
    };
    const param = { id: classId, sessionId };
    void request(api.classes[':id'].sessions[':sessionId'].room.join.$post({ param }))
      .then(() => current.join(initial))
      .catch(() => undefined);
    const unsubscribe = live.subscribe((frame) => {
      if (frame.type !== 'class-room-muted' || frame.sessionId !== sessionId) return;
      if (frame.userId === youId) {
        latestMedia.current.setMicrophone(false);
        setMutedBy(frame.by);
      } else
        setPeers((all) => {
          const peer = all[frame.userId] ?? newPeer;
          return { ...all, [frame.userId]: { ...peer, media: { ...peer.media, muted: true } } };
        });
    });
    return () => {
      unsubscribe();
      void current.leave();
      channel.close();
      mesh.current = null;
    };
  }, [classId, sessionId, youId, local, room.you, room.iceServers]);

  const chat = useMemo<ChatSource>(() => {
    const param = { id: classId, sessionId };
    const chatRoute = api.classes[':id'].sessions[':sessionId'].room.chat;
    return {
      load: () => request(chatRoute.$get({ param })).then((answer) => answer.lines),
      say: (text) => request(chatRoute.$post({ param, json: { text } })),
      heard: (frame) =>
        frame.type === 'class-room-chat' && frame.sessionId === sessionId ? frame.line : null,
    };
  }, [classId, sessionId]);

  const nameOf = (userId: string) =>
    userId === youId ? t`You` : (room.people.find((person) => person.id === userId)?.displayName ?? '');
  const muteForEveryone = (person: Person) =>
    void request(
      api.classes[':id'].sessions[':sessionId'].room.mute.$post({
        param: { id: classId, sessionId },
        json: { userId: person.id },
      }),
    ).catch(() => undefined);
  async function leave() {
    await mesh.current?.leave();
    onLeft();
  }

  const status = others.map((person) => {
    const peer = peers[person.id] ?? newPeer;
    const name = person.displayName;
    if (peer.state !== 'connected') return peerText(peer.state, name);
    return [
      peerText(peer.state, name),
      peer.media.muted ? t`${name} is muted.` : '',
      peer.media.sharing ? t`${name} is sharing their screen.` : '',
    ]
      .filter(Boolean)
      .join(' ');
  });
  const tutorName = tutor?.displayName ?? '';
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <section aria-label={t`Video`} className="space-y-3 lg:col-span-2">
        {mutedBy !== null && media.muted ? (
          <StatusMessage tone="info">
            <span className="flex flex-wrap items-center gap-x-3 gap-y-2">
              <span>
                <Trans>
                  {tutorName} muted your microphone for everyone. You can unmute it when you want to speak.
                </Trans>
              </span>
              <Button variant="secondary" onClick={() => media.setMicrophone(true)}>
                <Trans>Unmute</Trans>
              </Button>
            </span>
          </StatusMessage>
        ) : null}
        <ul className="grid grid-cols-2 gap-2 sm:gap-3">
          <OwnTile media={media} />
          {others.map((person) => (
            <RemoteTile
              key={person.id}
              person={person}
              peer={peers[person.id] ?? newPeer}
              text={peerText((peers[person.id] ?? newPeer).state, person.displayName)}
              onMute={
                room.you === 'tutor' && person.role === 'student' ? () => muteForEveryone(person) : null
              }
            />
          ))}
        </ul>
        <div role="status" className="min-h-6 space-y-0.5 text-sm text-slate-700">
          {status.map((line, index) => (
            <p key={others[index]?.id}>{line}</p>
          ))}
        </div>
        <CallControls media={media} onLeave={leave} />
      </section>
      <RoomChat
        source={chat}
        nameOf={nameOf}
        label={t`Class chat`}
        linesLabel={t`Class chat lines`}
        empty={<Trans>Lines written here are kept with this session.</Trans>}
      />
    </div>
  );
}

const tileClass = 'relative aspect-video overflow-hidden rounded-xl bg-slate-900';

function OwnTile({ media }: { media: LocalMedia }) {
  const { t } = useLingui();
  const video = useRef<HTMLVideoElement>(null);
  useOwnVideo(video, media);
  const showing = !media.videoOff || media.screen !== null;
  return (
    <li className={tileClass}>
      <video
        ref={video}
        autoPlay
        playsInline
        muted
        aria-label={t`Your video`}
        className={`h-full w-full object-cover ${showing ? '' : 'invisible'}`}
      />
      {showing ? null : <TileNote>{t`Your camera is off`}</TileNote>}
      <NameTag name={t`You`} muted={media.muted} />
    </li>
  );
}

function RemoteTile({
  person,
  peer,
  text,
  onMute,
}: {
  person: Person;
  peer: Peer;
  text: string;
  onMute: (() => void) | null;
}) {
  const { t } = useLingui();
  const name = person.displayName;
  const video = useRef<HTMLVideoElement>(null);
  useStream(video, peer.stream);
  // Someone muted (by themselves or by the tutor) is not played here either.
  useEffect(() => {
    if (video.current) video.current.muted = peer.media.muted;
  }, [peer.media.muted]);
  const showing =
    peer.stream !== null && peer.state !== 'left' && !(peer.media.videoOff && !peer.media.sharing);
  return (
    <li className={tileClass}>
      {/* biome-ignore lint/a11y/useMediaCaption: a live call has no caption track; the chat beside it is its text channel */}
      <video
        ref={video}
        autoPlay
        playsInline
        aria-label={t`${name}’s video`}
        className={`h-full w-full ${peer.media.sharing ? 'object-contain' : 'object-cover'} ${showing ? '' : 'invisible'}`}
      />
      {showing ? null : <TileNote>{peer.state === 'connected' ? t`${name}’s camera is off` : text}</TileNote>}
      <NameTag name={name} muted={peer.media.muted} sharing={peer.media.sharing} />
      {onMute ? (
        <button
          type="button"
          onClick={onMute}
          disabled={peer.media.muted || peer.state !== 'connected'}
          aria-label={peer.media.muted ? t`${name} is muted.` : t`Mute ${name} for everyone`}
          className="absolute end-1.5 top-1.5 rounded-md bg-slate-900/80 px-2 py-1 text-xs font-semibold text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-50"
        >
          {peer.media.muted ? t`Muted` : t`Mute`}
        </button>
      ) : null}
    </li>
  );
}

function TileNote({ children }: { children: React.ReactNode }) {
  return (
    <p className="absolute inset-0 flex items-center justify-center p-2 text-center text-xs text-slate-100 sm:text-sm">
      {children}
    </p>
  );
}

function NameTag({ name, muted, sharing = false }: { name: string; muted: boolean; sharing?: boolean }) {
  const { t } = useLingui();
  const notes = [muted ? t`muted` : '', sharing ? t`sharing their screen` : ''].filter(Boolean).join(', ');
  return (
    <p className="absolute bottom-1.5 start-1.5 max-w-[calc(100%-0.75rem)] truncate rounded-md bg-slate-900/80 px-2 py-0.5 text-xs text-white">
      {name}
      {notes ? <span className="text-slate-300"> · {notes}</span> : null}
    </p>
  );
}
