import { Trans } from '@lingui/react/macro';
import { describeTimeZone } from '../lib/time-zones';

/** "Times are in Central European Standard Time (GMT+1) · Madrid." */
export function ZoneNote({ timeZone, className = '' }: { timeZone: string; className?: string }) {
  const zone = describeTimeZone(timeZone);
  return (
    <p className={`text-sm text-slate-600 ${className}`}>
      <Trans>
        Times are in <span className="font-medium text-slate-800">{zone}</span>.
      </Trans>
    </p>
  );
}
