/** The finance page's downloads: the payables and the ledger's entries as CSV files, for the accountant. */
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { buttonClass } from '../../components/button';
import { CardSection } from '../../components/card';
import { fieldClass } from '../../components/field-class';
import { entriesCsvUrl, payablesCsvUrl } from './admin-data';

/** "2026-12-01": a day in this browser's calendar, as a date field holds it. */
function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function Downloads() {
  const today = new Date();
  const [from, setFrom] = useState(() => isoDay(new Date(today.getFullYear(), today.getMonth(), 1)));
  const [to, setTo] = useState(() => isoDay(today));
  const linkClass = 'font-semibold text-brand-700 underline';
  const { t } = useLingui();
  return (
    <CardSection title={t`Downloads`}>
      <ul className="space-y-4 text-sm text-slate-700">
        <li>
          <Trans>
            <a href={payablesCsvUrl} download className={linkClass}>
              Download payables (CSV)
            </a>
            : what each tutor is owed now.
          </Trans>
        </li>
        <li>
          <p>
            <Trans>Every ledger entry between two days (both included), for the accountant:</Trans>
          </p>
          <div className="mt-2 flex flex-wrap items-end gap-3">
            <label className="block text-sm font-medium text-slate-800">
              <Trans>From</Trans>
              <input
                type="date"
                value={from}
                max={to}
                onChange={(event) => setFrom(event.target.value)}
                className={`${fieldClass} w-44`}
              />
            </label>
            <label className="block text-sm font-medium text-slate-800">
              <Trans>To</Trans>
              <input
                type="date"
                value={to}
                min={from}
                onChange={(event) => setTo(event.target.value)}
                className={`${fieldClass} w-44`}
              />
            </label>
            <a
              href={from && to ? entriesCsvUrl(from, to) : undefined}
              download
              aria-disabled={!from || !to || undefined}
              className={buttonClass('secondary')}
            >
              <Trans>Download entries (CSV)</Trans>
            </a>
          </div>
        </li>
      </ul>
    </CardSection>
  );
}
