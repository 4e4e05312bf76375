import { useState } from 'react';
import { Button } from './button';
import { StatusMessage } from './messages';

/**
 * A button for a feature that does not exist yet: pressing it says so plainly, so no button on
 * the site ever does nothing.
 */
export function ComingSoonButton({
  label,
  note,
  className = '',
}: {
  label: string;
  note: string;
  className?: string;
}) {
  const [pressed, setPressed] = useState(false);
  return (
    <div className={className}>
      <Button variant="secondary" className="w-full" onClick={() => setPressed(true)}>
        {label}
      </Button>
      {pressed ? (
        <div className="mt-2">
          <StatusMessage tone="info">{note}</StatusMessage>
        </div>
      ) : null}
    </div>
  );
}
