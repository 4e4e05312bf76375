/**
 * A form's Idempotency-Key, as a hidden field its action reads (lib/idempotency.ts): the same while
 * the form is resent, a new one once the form went through, as the next send is another request.
 */
import { useEffect, useState } from 'react';
import type { FetcherWithComponents } from 'react-router';
import type { FormAnswer } from '../lib/forms';
import { IDEMPOTENCY_KEY_FIELD, newIdempotencyKey } from '../lib/idempotency';

export function IdempotencyKeyInput({ fetcher }: { fetcher: FetcherWithComponents<FormAnswer | undefined> }) {
  const [key, setKey] = useState(newIdempotencyKey);
  const answered = fetcher.state === 'idle' ? fetcher.data : undefined;
  useEffect(() => {
    if (answered?.done) setKey(newIdempotencyKey());
  }, [answered]);
  return <input type="hidden" name={IDEMPOTENCY_KEY_FIELD} value={key} />;
}
