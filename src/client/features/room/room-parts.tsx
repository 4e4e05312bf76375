/**
 * What both rooms' pages share around the call: the zone their times are read in, a reload when
 * the room opens or closes, and the notice that stands in for the call when it is not open.
 */
import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { useRevalidator } from 'react-router';
import { browserTimeZone } from '../../lib/time-zones';
import { useAuth } from '../auth';
import type { PeerState } from './call';

/** The zone the viewer reads times in: the one they saved, else this browser's. */
export function useViewerTimeZone() {
  const auth = useAuth();
  return auth.user?.timeZone ?? browserTimeZone();
}

/** Loads the page again when the room opens or closes, so nobody has to reload it. */
export function useReloadAt(at: number | null) {
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

export function Notice({ children }: { children: React.ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 text-slate-700 shadow-sm">
      {children}
    </div>
  );
}

/** What another person's page is doing, in words: in a lesson they leave the lesson, in a class the room. */
export function usePeerText(room: 'lesson' | 'class') {
  const { t } = useLingui();
  return (state: PeerState, name: string) => {
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
        return room === 'lesson' ? t`${name} left the lesson.` : t`${name} left the room.`;
    }
  };
}
