/**
 * A form or control that calls the API and then shows the page's data as the server now holds
 * it: whether the call is under way, the failure in words, and `run`, which does the rest.
 */
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { failureMessage } from './api';

export const TRY_AGAIN = 'That did not work. Please try again.';

export function useApiAction(fallback = TRY_AGAIN) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  /** Sends `call`, then reads the page's data again; true when it went through. */
  async function run(call: () => Promise<unknown>): Promise<boolean> {
    setBusy(true);
    setProblem(null);
    try {
      await call();
      await revalidator.revalidate();
      return true;
    } catch (error) {
      setProblem(failureMessage(error, fallback));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { busy, problem, setProblem, run };
}
