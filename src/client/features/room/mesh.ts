/**
 * A class room's calls: this page keeps one Call (call.ts: one RTCPeerConnection, perfect
 * negotiation) with each other person's page, a mesh of up to six people. Each Call talks to its
 * page alone through the room's channel; only hello (this page joined, or came back), bye and
 * what this page shows go to every page at once.
 *
 * A page that joins says hello to the room; every page there meets a page it did not know, so it
 * starts a Call with it and says hello back to it alone, and the newcomer starts a Call with each
 * of them in turn. In each pair one side is the polite one: the student facing the tutor, and of
 * two students the one whose id sorts first, so both sides always agree.
 */
import { Call, type PeerState, type RemoteMedia } from './call';
import type { PageAddress, Role, RoomChannel, Signal } from './room-signals';

export interface MeshEvents {
  onPeerState(userId: string, state: PeerState): void;
  onRemoteStream(userId: string, stream: MediaStream | null): void;
  onRemoteMedia(userId: string, media: RemoteMedia): void;
}

export class Mesh {
  private readonly calls = new Map<string, { call: Call; peer: string }>();
  private media: RemoteMedia = { muted: false, videoOff: false, sharing: false };
  private video: MediaStreamTrack | null;

  constructor(
    private readonly channel: RoomChannel,
    private readonly options: {
      you: { userId: string; role: Role };
      iceServers: RTCIceServer[];
      local: MediaStream | null;
      events: MeshEvents;
    },
  ) {
    this.video = options.local?.getVideoTracks()[0] ?? null;
  }

  /** This page joins: every page in the room answers, and a Call starts with each. */
  async join(media: RemoteMedia): Promise<void> {
    this.media = media;
    await this.channel.send({ kind: 'hello' });
  }

  /** After the live channel came back: say hello again, in case a signal was lost meanwhile. */
  async rejoin(): Promise<void> {
    await this.channel.send({ kind: 'hello' });
  }

  receive(from: PageAddress & { role: Role }, signal: Signal): void {
    let entry = this.calls.get(from.userId);
    if (signal.kind === 'hello') {
      if (!entry) {
        entry = { call: this.callWith(from), peer: from.peer };
        this.calls.set(from.userId, entry);
      }
      // A page of theirs not known yet (a rejoin): the Call starts afresh with it.
      entry.peer = from.peer;
    }
    entry?.call.receive(from, signal);
  }

  /** Tells every page what this page shows. */
  async announce(media: RemoteMedia): Promise<void> {
    this.media = media;
    await Promise.all([...this.calls.values()].map(({ call }) => call.announce(media)));
  }

  /** The track every page gets as video: the camera's, a screen's, or none. */
  async sendVideo(track: MediaStreamTrack | null): Promise<void> {
    this.video = track;
    await Promise.all([...this.calls.values()].map(({ call }) => call.sendVideo(track)));
  }

  async leave(): Promise<void> {
    // Each Call says bye to its page through this map: it is emptied once they all have.
    await Promise.all([...this.calls.values()].map(({ call }) => call.leave()));
    this.calls.clear();
  }

  private callWith(them: { userId: string; role: Role }): Call {
    const { you, events } = this.options;
    const polite = you.role === them.role ? you.userId < them.userId : you.role === 'student';
    const pair = {
      peer: this.channel.peer,
      send: (signal: Signal) => {
        const entry = this.calls.get(them.userId);
        return entry
          ? this.channel.send(signal, { userId: them.userId, peer: entry.peer })
          : Promise.resolve();
      },
      close: () => undefined,
    };
    const call = new Call(pair, {
      polite,
      iceServers: this.options.iceServers,
      local: this.options.local,
      // A page that joins while this one shares its screen gets the screen, not the camera.
      video: () => this.video,
      events: {
        onPeerState: (state) => events.onPeerState(them.userId, state),
        onRemoteStream: (stream) => events.onRemoteStream(them.userId, stream),
        onRemoteMedia: (media) => events.onRemoteMedia(them.userId, media),
      },
    });
    // What this page shows, told with its hello back (nothing is sent before that).
    void call.announce(this.media);
    return call;
  }
}
