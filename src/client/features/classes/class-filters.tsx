/**
 * The filters of /classes: subject, language, a day and a highest price a session, all in the URL.
 * A select applies at once; the day and the price with "Show classes" (or Enter).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useRef } from 'react';
import { currencySymbol } from '../../../shared/money/amounts';
import { catalogSubjects, SPOKEN_LANGUAGES } from '../../../shared/tutor-catalog';
import { buttonClass } from '../../components/button';
import { fieldClass } from '../../components/field-class';
import { translated } from '../../lib/i18n';
import { usePaymentsConfig } from '../../lib/payments-config';
import { usePublicConfig } from '../../lib/public-config';

/** The URL's filters, in the order the page keeps them. */
export const FILTER_KEYS = ['subject', 'language', 'day', 'maxPrice', 'page'] as const;

/** Only the known, non-empty parameters stay in the URL. */
export function cleanFilters(params: URLSearchParams): URLSearchParams {
  const clean = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) clean.set(key, value);
  }
  return clean;
}

const labelClass = 'block text-sm font-medium text-slate-800';

export function ClassFilters({
  params,
  onApply,
}: {
  params: URLSearchParams;
  onApply: (next: URLSearchParams) => void;
}) {
  const { t } = useLingui();
  const form = useRef<HTMLFormElement>(null);
  const subjects = catalogSubjects(usePublicConfig()?.subjects ?? []);
  const unit = currencySymbol(usePaymentsConfig().currency);
  const apply = () => {
    if (!form.current) return;
    const next = new URLSearchParams();
    for (const [key, value] of new FormData(form.current))
      if (typeof value === 'string') next.set(key, value);
    // Another filter starts from the first page.
    onApply(cleanFilters(next));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply();
  };
  return (
    <form ref={form} onSubmit={onSubmit} className="grid grid-cols-2 items-end gap-4 lg:grid-cols-5">
      <div>
        <label htmlFor="class-subject" className={labelClass}>
          <Trans>Subject</Trans>
        </label>
        <select
          id="class-subject"
          name="subject"
          defaultValue={params.get('subject') ?? ''}
          onChange={apply}
          className={fieldClass}
        >
          <option value="">{t`All subjects`}</option>
          {subjects.map((subject) => (
            <option key={subject} value={subject}>
              {translated(subject)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="class-language" className={labelClass}>
          <Trans>Language</Trans>
        </label>
        <select
          id="class-language"
          name="language"
          defaultValue={params.get('language') ?? ''}
          onChange={apply}
          className={fieldClass}
        >
          <option value="">{t`Any language`}</option>
          {SPOKEN_LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {translated(language)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="class-day" className={labelClass}>
          <Trans>Day</Trans>
        </label>
        <input
          id="class-day"
          type="date"
          name="day"
          defaultValue={params.get('day') ?? ''}
          className={fieldClass}
        />
      </div>
      <div>
        <label htmlFor="class-max-price" className={labelClass}>
          <Trans>Max price a session ({unit})</Trans>
        </label>
        <input
          id="class-max-price"
          type="number"
          name="maxPrice"
          inputMode="numeric"
          min={0}
          defaultValue={params.get('maxPrice') ?? ''}
          className={fieldClass}
        />
      </div>
      <div className="col-span-2 lg:col-span-1">
        <button type="submit" className={buttonClass('primary', 'md', 'h-[2.875rem] w-full')}>
          <Trans>Show classes</Trans>
        </button>
      </div>
    </form>
  );
}
