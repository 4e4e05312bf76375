/**
 * This page's side of a call, the same in a lesson's room and a class's: the microphone, camera
 * and shared screen (Mute and Stop video are toggles, pressed while off; Share screen replaces the
 * camera on every connection and gives it back), the controls that switch them, and the tracks
 * stopped when the room closes.
 */
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import type { RemoteMedia } from './call';

/** What the page's calls do with this side's media: tell the others, send another video track. */
export interface MediaTarget {
  announce(media: RemoteMedia): Promise<void>;
  sendVideo(track: MediaStreamTrack | null): Promise<void>;
}

export function useLocalMedia(local: MediaStream | null, target: () => MediaTarget | null) {
  const [muted, setMuted] = useState(!local?.getAudioTracks().length);
  const [videoOff, setVideoOff] = useState(!local?.getVideoTracks().length);
  const [screen, setScreen] = useState<MediaStreamTrack | null>(null);
  const camera = local?.getVideoTracks()[0] ?? null;
  const microphone = local?.getAudioTracks()[0] ?? null;

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

  const announce = (next: Partial<RemoteMedia>) =>
    void target()
      ?.announce({ muted, videoOff, sharing: screen !== null, ...next })
      .catch(() => undefined);

  function setMicrophone(on: boolean) {
    if (!microphone) return;
    microphone.enabled = on;
    setMuted(!on);
    announce({ muted: !on });
  }
  function toggleVideo() {
    if (!camera) return;
    camera.enabled = videoOff;
    setVideoOff(!videoOff);
    announce({ videoOff: !videoOff });
  }
  async function stopSharing() {
    await target()?.sendVideo(camera);
    setScreen(null);
    announce({ sharing: false });
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
      await target()?.sendVideo(track);
      setScreen(track);
      announce({ sharing: true });
    } catch {
      // The person chose not to share: nothing changes.
    }
  }

  return {
    local,
    muted,
    videoOff,
    screen,
    camera,
    microphone,
    /** What this side shows now, as the others are told it. */
    media: { muted, videoOff, sharing: screen !== null } satisfies RemoteMedia,
    setMicrophone,
    toggleMute: () => setMicrophone(muted),
    toggleVideo,
    toggleScreen,
  };
}

export type LocalMedia = ReturnType<typeof useLocalMedia>;

/** Keeps a video element showing a stream. */
export function useStream(video: React.RefObject<HTMLVideoElement | null>, stream: MediaStream | null) {
  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
  }, [video, stream]);
}

/** This side's own video: the shared screen while sharing, else the camera. */
export function useOwnVideo(video: React.RefObject<HTMLVideoElement | null>, media: LocalMedia) {
  const { local, screen } = media;
  useEffect(() => {
    if (video.current) video.current.srcObject = screen ? new MediaStream([screen]) : local;
  }, [video, local, screen]);
}

export function CallControls({ media, onLeave }: { media: LocalMedia; onLeave: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="secondary"
        aria-pressed={media.muted}
        onClick={media.toggleMute}
        disabled={!media.microphone}
      >
        <Trans>Mute</Trans>
      </Button>
      <Button
        variant="secondary"
        aria-pressed={media.videoOff}
        onClick={media.toggleVideo}
        disabled={!media.camera}
      >
        <Trans>Stop video</Trans>
      </Button>
      {typeof navigator.mediaDevices?.getDisplayMedia === 'function' ? (
        <Button variant="secondary" aria-pressed={media.screen !== null} onClick={media.toggleScreen}>
          <Trans>Share screen</Trans>
        </Button>
      ) : null}
      <Button variant="danger" onClick={onLeave}>
        <Trans>Leave</Trans>
      </Button>
    </div>
  );
}
