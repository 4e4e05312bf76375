/**
 * The call between the two participants' browsers: one RTCPeerConnection, set up with the
 * "perfect negotiation" pattern (the student's page is the polite one and gives way when both
 * offer at once), so either side may join first, leave, and come back.
 *
 * A page says "hello" when it joins; the other answers with its own "hello" when it hears a page
 * it did not know, and only then do both start the connection, so no offer is sent to nobody.
 * Audio and video each get a transceiver that sends from the start, even without a microphone or
 * camera, so a screen can be shared later without renegotiating.
 */
import type { Signal, SignalChannel } from './room-signals';

export type PeerState = 'waiting' | 'connecting' | 'connected' | 'reconnecting' | 'left';
export interface RemoteMedia {
  muted: boolean;
  videoOff: boolean;
  sharing: boolean;
}

export interface CallEvents {
  onPeerState(state: PeerState): void;
  onRemoteStream(stream: MediaStream | null): void;
  onRemoteMedia(media: RemoteMedia): void;
}

export class Call {
  private pc: RTCPeerConnection | null = null;
  private remotePeer: string | null = null;
  private makingOffer = false;
  private ignoreOffer = false;
  /** Signals are handled one after another: a candidate must not overtake its description. */
  private queue: Promise<void> = Promise.resolve();
  private media: RemoteMedia = { muted: false, videoOff: false, sharing: false };

  constructor(
    private readonly signals: SignalChannel,
    private readonly options: {
      polite: boolean;
      iceServers: RTCIceServer[];
      local: MediaStream | null;
      /** The track to send as video when a connection opens (a screen being shared), if not the camera's. */
      video?: () => MediaStreamTrack | null;
      events: CallEvents;
    },
  ) {}

  /** This page joins: the other, if there, answers. */
  async join(media: RemoteMedia): Promise<void> {
    this.media = media;
    await this.signals.send({ kind: 'hello' });
  }

  /** After the live channel came back: say hello again, in case a signal was lost meanwhile. */
  async rejoin(): Promise<void> {
    await this.signals.send({ kind: 'hello' });
  }

  receive(from: { peer: string }, signal: Signal): void {
    this.queue = this.queue
      .then(() => this.handle(from.peer, signal))
      .catch(() => {
        // A signal that fails (a stale description) is dropped; ICE restarts cover the rest.
      });
  }

  /** Tells the other side what this page shows. */
  async announce(media: RemoteMedia): Promise<void> {
    this.media = media;
    if (this.remotePeer) await this.signals.send({ kind: 'state', ...media });
  }

  /** The track sent as video: the camera's, a screen's, or none. */
  async sendVideo(track: MediaStreamTrack | null): Promise<void> {
    const sender = this.pc?.getTransceivers().find((t) => t.receiver.track.kind === 'video')?.sender;
    await sender?.replaceTrack(track);
  }

  async leave(): Promise<void> {
    this.closeConnection();
    this.remotePeer = null;
    await this.signals.send({ kind: 'bye' }).catch(() => undefined);
  }

  private async handle(peer: string, signal: Signal): Promise<void> {
    if (signal.kind === 'hello') {
      if (peer === this.remotePeer) return;
      // A page not known yet: the other side (re)joined. Start afresh with it and say hello back.
      this.closeConnection();
      this.remotePeer = peer;
      this.open();
      await this.signals.send({ kind: 'hello' });
      await this.signals.send({ kind: 'state', ...this.media });
      return;
    }
    if (peer !== this.remotePeer) return;
    const pc = this.pc;
    if (!pc) return;
    switch (signal.kind) {
      case 'bye':
        this.closeConnection();
        this.remotePeer = null;
        this.options.events.onPeerState('left');
        return;
      case 'state':
        this.options.events.onRemoteMedia({
          muted: signal.muted,
          videoOff: signal.videoOff,
          sharing: signal.sharing,
        });
        return;
      case 'description': {
        const collision = signal.type === 'offer' && (this.makingOffer || pc.signalingState !== 'stable');
        this.ignoreOffer = !this.options.polite && collision;
        if (this.ignoreOffer) return;
        await pc.setRemoteDescription({ type: signal.type, sdp: signal.sdp });
        if (signal.type === 'offer') {
          await pc.setLocalDescription();
          const answer = pc.localDescription;
          if (answer) await this.signals.send({ kind: 'description', type: 'answer', sdp: answer.sdp });
        }
        return;
      }
      case 'candidate':
        try {
          await pc.addIceCandidate({
            candidate: signal.candidate,
            sdpMid: signal.sdpMid,
            sdpMLineIndex: signal.sdpMLineIndex,
          });
        } catch (error) {
          if (!this.ignoreOffer) throw error;
        }
        return;
    }
  }

  private open(): void {
    const pc = new RTCPeerConnection({ iceServers: this.options.iceServers });
    this.pc = pc;
    const local = this.options.local;
    for (const kind of ['audio', 'video'] as const) {
      const track =
        kind === 'video' && this.options.video
          ? this.options.video()
          : (local?.getTracks().find((t) => t.kind === kind) ?? null);
      if (track) pc.addTransceiver(track, { direction: 'sendrecv', streams: local ? [local] : [] });
      else pc.addTransceiver(kind, { direction: 'sendrecv' });
    }
    const remote = new MediaStream();
    pc.ontrack = (event) => {
      remote.addTrack(event.track);
      this.options.events.onRemoteStream(remote);
    };
    pc.onnegotiationneeded = async () => {
      try {
        this.makingOffer = true;
        await pc.setLocalDescription();
        const offer = pc.localDescription;
        if (offer)
          await this.signals.send({ kind: 'description', type: offer.type as 'offer', sdp: offer.sdp });
      } finally {
        this.makingOffer = false;
      }
    };
    pc.onicecandidate = ({ candidate }) => {
      if (!candidate?.candidate) return;
      void this.signals
        .send({
          kind: 'candidate',
          candidate: candidate.candidate,
          sdpMid: candidate.sdpMid,
          sdpMLineIndex: candidate.sdpMLineIndex,
        })
        .catch(() => undefined);
    };
    pc.onconnectionstatechange = () => {
      const state = pc.connectionState;
      if (state === 'connected') this.options.events.onPeerState('connected');
      else if (state === 'disconnected') this.options.events.onPeerState('reconnecting');
      else if (state === 'failed') {
        // The network changed under the call: look for a new path without starting over.
        this.options.events.onPeerState('reconnecting');
        pc.restartIce();
      } else if (state === 'new' || state === 'connecting') this.options.events.onPeerState('connecting');
    };
    this.options.events.onPeerState('connecting');
  }

  private closeConnection(): void {
    if (!this.pc) return;
    this.pc.ontrack = null;
    this.pc.onnegotiationneeded = null;
    this.pc.onicecandidate = null;
    this.pc.onconnectionstatechange = null;
    this.pc.close();
    this.pc = null;
    this.options.events.onRemoteStream(null);
  }
}
