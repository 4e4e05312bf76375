/**
 * Before joining: a preview of the camera, a choice of camera and microphone, and, when the
 * browser may not use them or there are none, what that means: join with audio only, or as a
 * listener who sees and hears the other side without being seen or heard.
 */
import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { StatusMessage } from '../../components/messages';
import { SelectField } from '../../components/text-field';

type Devices = { cameras: MediaDeviceInfo[]; microphones: MediaDeviceInfo[] };

/** The camera and microphone chosen, or what the browser allows of them. */
async function openMedia(
  cameraId: string,
  microphoneId: string,
): Promise<{ stream: MediaStream | null; note: string | null }> {
  const audio: MediaTrackConstraints | boolean = microphoneId ? { deviceId: { exact: microphoneId } } : true;
  const video: MediaTrackConstraints | boolean = cameraId ? { deviceId: { exact: cameraId } } : true;
  try {
    return { stream: await navigator.mediaDevices.getUserMedia({ audio, video }), note: null };
  } catch (error) {
    const name = (error as DOMException).name;
    if (name === 'NotAllowedError' || name === 'SecurityError')
      return {
        stream: null,
        note: t`Your browser may not use your camera or microphone. Allow them for this site in the browser’s settings and reload, or join as a listener: you will see and hear, but not be seen or heard.`,
      };
    // No camera, or one in use elsewhere: the microphone alone may still do.
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio });
      return { stream, note: t`No camera could be used, so you will join with audio only.` };
    } catch {
      return {
        stream: null,
        note: t`No camera or microphone was found. You can join as a listener: you will see and hear, but not be seen or heard.`,
      };
    }
  }
}

export function PreJoin({ onJoin }: { onJoin: (stream: MediaStream | null) => void }) {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [devices, setDevices] = useState<Devices>({ cameras: [], microphones: [] });
  const [cameraId, setCameraId] = useState('');
  const [microphoneId, setMicrophoneId] = useState('');
  const preview = useRef<HTMLVideoElement>(null);
  const handedOver = useRef(false);
  const headingId = useId();

  useEffect(() => {
    if (!navigator.mediaDevices?.getUserMedia) {
      setNote(t`This browser cannot use a camera or microphone here. You can join as a listener.`);
      setLoading(false);
      return;
    }
    let current: MediaStream | null = null;
    let cancelled = false;
    setLoading(true);
    openMedia(cameraId, microphoneId).then(async (opened) => {
      if (cancelled) {
        for (const track of opened.stream?.getTracks() ?? []) track.stop();
        return;
      }
      current = opened.stream;
      setStream(opened.stream);
      setNote(opened.note);
      setLoading(false);
      // Device names are only given once the browser may use the devices.
      const all = await navigator.mediaDevices.enumerateDevices().catch(() => []);
      setDevices({
        cameras: all.filter((device) => device.kind === 'videoinput' && device.deviceId),
        microphones: all.filter((device) => device.kind === 'audioinput' && device.deviceId),
      });
    });
    return () => {
      cancelled = true;
      if (!handedOver.current) for (const track of current?.getTracks() ?? []) track.stop();
    };
  }, [cameraId, microphoneId]);

  useEffect(() => {
    if (preview.current) preview.current.srcObject = stream;
  }, [stream]);

  const hasVideo = Boolean(stream?.getVideoTracks().length);
  return (
    <section
      aria-labelledby={headingId}
      className="grid gap-6 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 md:grid-cols-2"
    >
      <div className="relative aspect-video overflow-hidden rounded-xl bg-slate-900">
        {/* The preview is silent: hearing oneself back is confusing. */}
        <video
          ref={preview}
          autoPlay
          playsInline
          muted
          aria-label={t`Your camera preview`}
          className={`h-full w-full object-cover ${hasVideo ? '' : 'hidden'}`}
        />
        {hasVideo ? null : (
          <p className="absolute inset-0 flex items-center justify-center p-4 text-center text-sm text-slate-200">
            {loading ? t`Starting your camera…` : t`No camera`}
          </p>
        )}
      </div>
      <div className="space-y-4">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          <Trans>Ready to join?</Trans>
        </h2>
        {note ? <StatusMessage tone="info">{note}</StatusMessage> : null}
        {devices.cameras.length > 1 ? (
          <SelectField
            label={t`Camera`}
            value={cameraId}
            onChange={(event) => setCameraId(event.target.value)}
          >
            <option value="">{t`Default camera`}</option>
            {devices.cameras.map((device, index) => {
              const number = index + 1;
              return (
                <option key={device.deviceId} value={device.deviceId}>
                  {device.label || t`Camera ${number}`}
                </option>
              );
            })}
          </SelectField>
        ) : null}
        {devices.microphones.length > 1 ? (
          <SelectField
            label={t`Microphone`}
            value={microphoneId}
            onChange={(event) => setMicrophoneId(event.target.value)}
          >
            <option value="">{t`Default microphone`}</option>
            {devices.microphones.map((device, index) => {
              const number = index + 1;
              return (
                <option key={device.deviceId} value={device.deviceId}>
                  {device.label || t`Microphone ${number}`}
                </option>
              );
            })}
          </SelectField>
        ) : null}
        <Button
          size="lg"
          busy={loading}
          disabled={loading}
          onClick={() => {
            handedOver.current = true;
            onJoin(stream);
          }}
        >
          {stream ? t`Join now` : t`Join as a listener`}
        </Button>
      </div>
    </section>
  );
}
