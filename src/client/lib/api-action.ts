/**
 * The one way a button (or a small form that is not a page's form, see components/form.tsx) sends
 * a change: whether the call is under way, the failure in words, and `run`, which sends it and
 * then shows the page's data as the server now holds it. No component keeps a busy flag or an
 * error state of its own for a call.
 */
import { useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import { failureMessage } from './api';

/** Marked for the catalogue; shown through translated() (failureMessage). */
export const TRY_AGAIN = /*i18n*/ 'That did not work. Please try again.';

export interface RunOptions<T> {
  /** Which control sent the call: `busyWith` names it while the call is under way. */
  key?: string;
  /** The answer, once the call went through (before the page's data is read again). */
  onDone?: (result: T) => void;
  /** Read the page's data again after the call; true by default. */
  reload?: boolean;
  /**
   * The call leads away from this page (a navigation in `onDone`): stay busy once it went
   * through, so the control cannot be pressed again while the next page loads.
   */
  leavesPage?: boolean;
  /** A failure the caller tells its own way: return true and the hook says nothing of it. */
  onFailure?: (error: unknown) => boolean | undefined;
}

export function useApiAction(fallback = TRY_AGAIN) {
  const revalidator = useRevalidator();
  const [busyWith, setBusyWith] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A second press before React has drawn the busy state must not send the call twice.
  const running = useRef(false);

  /** Sends `call`, then reads the page's data again; true when it went through. */
  async function run<T>(call: () => Promise<T>, options: RunOptions<T> = {}): Promise<boolean> {
    if (running.current) return false;
    running.current = true;
    setBusyWith(options.key ?? '');
    setProblem(null);
    let leaving = false;
    try {
      const result = await call();
      options.onDone?.(result);
      if (options.reload !== false) await revalidator.revalidate();
      leaving = options.leavesPage === true;
      return true;
    } catch (error) {
      if (!options.onFailure?.(error)) setProblem(failureMessage(error, fallback));
      return false;
    } finally {
      running.current = leaving;
      if (!leaving) setBusyWith(null);
    }
  }

  return { busy: busyWith !== null, busyWith, problem, setProblem, run };
}
