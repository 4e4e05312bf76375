/**
 * The tutor search's form on /tutors: the text, then a category, subject, language, rating, trial
 * lesson, price range and sort, each select applied as soon as it is chosen.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useId, useRef, useState } from 'react';
import { SUBJECT_CATEGORIES } from '../../../shared/constants';
import { currencySymbol } from '../../../shared/money/amounts';
import {
  catalogSubjects,
  effectiveSort,
  SPOKEN_LANGUAGES,
  TUTOR_SORTS,
  type TutorSort,
} from '../../../shared/tutor-catalog';
import { buttonClass } from '../../components/button';
import { fieldClass } from '../../components/field-class';
import { translated } from '../../lib/i18n';
import { usePaymentsConfig } from '../../lib/payments-config';
import { usePublicConfig } from '../../lib/public-config';
import { activeFilterCount, cleanSearch } from './tutor-api';

function Select({
  label,
  name,
  value,
  options,
  anyLabel,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly (string | { value: string; label: string; disabled?: boolean })[];
  anyLabel?: string;
  onChange(value: string): void;
}) {
  const id = useId();
  // Full width on a phone, a quarter of the row on a desktop: wide enough for its longest option.
  return (
    <div className="col-span-2 sm:col-span-1 lg:col-span-3">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={fieldClass}
      >
        {anyLabel ? <option value="">{anyLabel}</option> : null}
        {options.map((option) => {
          const {
            value: optionValue,
            label: optionLabel,
            disabled,
          } = typeof option === 'string' ? { value: option, label: option, disabled: false } : option;
          return (
            <option key={optionValue} value={optionValue} disabled={disabled}>
              {optionLabel}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** The sorts' names (the same words as TUTOR_SORT_LABELS in src/shared/tutor-catalog.ts). */
const SORT_LABELS: Record<TutorSort, MessageDescriptor> = {
  relevance: msg`Best match`,
  rating: msg`Best rated`,
  price_asc: msg`Price: low to high`,
  price_desc: msg`Price: high to low`,
  newest: msg`Newest`,
};

/** A name from the catalogue shown in the page's language; its English name stays the value. */
const namedOption = (name: string) => ({ value: name, label: translated(name) });

/** A whole-dollar bound of the price range, as the URL has it. */
function PriceField({
  id,
  name,
  label,
  params,
}: {
  id: string;
  name: 'minPrice' | 'maxPrice';
  label: string;
  params: URLSearchParams;
}) {
  return (
    <div className="col-span-1 lg:col-span-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        min={0}
        max={500}
        defaultValue={params.get(name) ?? ''}
        className={fieldClass}
      />
    </div>
  );
}

/** The sort the server applies to this URL's choice and the typed text (shared rule). */
function shownSort(chosen: string | null, text: string): TutorSort {
  return effectiveSort(
    TUTOR_SORTS.find((known) => known === chosen),
    Boolean(text.trim()),
  );
}

/** The buttons beside the search field stand as tall as it. */
const FIELD_HEIGHT = 'h-[2.875rem]';

/**
 * The search form, made anew from the URL after each search (its key is the URL's query). A
 * select applies everything the form holds at that moment, as the Search button does, so text or
 * prices typed but not yet submitted are never lost. On a phone the filters wait behind a
 * "Filters" button, so that the tutors come first on the screen; on a wider screen they are all
 * in view.
 */
export function SearchForm({
  params,
  onSearch,
  filtersOpen,
  onFiltersOpen,
}: {
  params: URLSearchParams;
  /** `focused` finds the control that applied the search again, to give the focus back to. */
  onSearch(next: URLSearchParams, focused: string): void;
  filtersOpen: boolean;
  onFiltersOpen(open: boolean): void;
}) {
  const { t } = useLingui();
  const form = useRef<HTMLFormElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // Followed as it is typed: Best match is offered only once there is text to rank by.
  const [text, setText] = useState(params.get('q') ?? '');
  const category = params.get('category') ?? '';
  // The catalogue in effect, retired subjects too: the tutors who kept them are still found.
  const catalog = usePublicConfig()?.subjects ?? [];
  // Prices are searched in whole units of the school's currency, as hourly rates are kept.
  const unit = currencySymbol(usePaymentsConfig().currency);
  const inCategory = catalog.filter((entry) => entry.category === category);
  const subjects = catalogSubjects(inCategory.length > 0 ? inCategory : catalog);
  const active = activeFilterCount(params);

  /** Every search is a new history entry: the back button walks back through the searches. */
  const apply = (changes: Record<string, string> = {}) => {
    if (!form.current) return;
    const next = new URLSearchParams();
    for (const [key, value] of new FormData(form.current)) {
      if (typeof value === 'string') next.set(key, value);
    }
    for (const [key, value] of Object.entries(changes)) next.set(key, value);
    // The sort the text gets anyway stays out of the URL.
    const q = next.get('q') ?? '';
    if (shownSort(next.get('sort'), q) === shownSort(null, q)) next.delete('sort');
    // The form is made anew for the answer (new element ids): a field is found again by its name,
    // a button by its fixed id.
    const focused = document.activeElement;
    const name = focused?.getAttribute('name');
    const again =
      !focused || !form.current.contains(focused)
        ? ''
        : name
          ? `[name="${name}"]`
          : focused.id
            ? `#${focused.id}`
            : '';
    onSearch(cleanSearch(next), again);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // "Show results" closes the filters too: the focus goes back to the button that opened them.
    if ((event.nativeEvent as SubmitEvent).submitter?.dataset.closesFilters) {
      onFiltersOpen(false);
      toggle.current?.focus();
    }
    apply();
  };

  return (
    <form ref={form} onSubmit={onSubmit} className="grid grid-cols-2 gap-4 lg:grid-cols-12">
      <div className="col-span-2 lg:col-span-10">
        <label htmlFor="tutor-search-text" className="block text-sm font-medium text-slate-800">
          <Trans>Search</Trans>
        </label>
        <input
          id="tutor-search-text"
          type="search"
          name="q"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={t`Subject, name or keyword`}
          maxLength={100}
          className={fieldClass}
        />
      </div>
      <div className="col-span-1 flex items-end md:col-span-2">
        <button
          id="tutor-search-submit"
          type="submit"
          className={buttonClass('primary', 'md', `w-full ${FIELD_HEIGHT}`)}
        >
          <Trans>Search</Trans>
        </button>
      </div>
      <div className="col-span-1 flex items-end md:hidden">
        <button
          ref={toggle}
          id="tutor-filters-toggle"
          type="button"
          aria-expanded={filtersOpen}
          aria-controls={panelId}
          onClick={() => onFiltersOpen(!filtersOpen)}
          className={buttonClass('secondary', 'md', `w-full ${FIELD_HEIGHT}`)}
        >
          <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-4">
            <path d="M3 4.5A1.5 1.5 0 0 1 4.5 3h11A1.5 1.5 0 0 1 17 4.5v1.2a1.5 1.5 0 0 1-.44 1.06L12 11.3V16a1 1 0 0 1-1.45.9l-2-1A1 1 0 0 1 8 15v-3.7L3.44 6.76A1.5 1.5 0 0 1 3 5.7V4.5Z" />
          </svg>
          {active > 0 ? <Trans>Filters ({active})</Trans> : <Trans>Filters</Trans>}
        </button>
      </div>
      {/* On a phone a panel of its own, open or not; from md up its fields join the form's grid. */}
      <div
        id={panelId}
        className={`${filtersOpen ? 'grid' : 'hidden'} col-span-2 grid-cols-2 gap-4 md:contents`}
      >
        <Select
          label={t`Category`}
          name="category"
          value={category}
          anyLabel={t`All categories`}
          options={SUBJECT_CATEGORIES.map(namedOption)}
          onChange={() => apply({ subject: '' })}
        />
        <Select
          label={t`Subject`}
          name="subject"
          value={params.get('subject') ?? ''}
          anyLabel={t`All subjects`}
          options={subjects.map(namedOption)}
          onChange={() => apply()}
        />
        <Select
          label={t`Language`}
          name="language"
          value={params.get('language') ?? ''}
          anyLabel={t`Any language`}
          options={SPOKEN_LANGUAGES.map(namedOption)}
          onChange={() => apply()}
        />
        <Select
          label={t`Rating`}
          name="minRating"
          value={params.get('minRating') ?? ''}
          anyLabel={t`Any rating`}
          options={['4.5', '4', '3.5', '3'].map((stars) => {
            const count = Number(stars);
            return {
              value: stars,
              label: t`${plural(count, { one: '# star and up', other: '# stars and up' })}`,
            };
          })}
          onChange={() => apply()}
        />
        <Select
          label={t`Trial lesson`}
          name="trial"
          value={params.get('trial') ?? ''}
          anyLabel={t`Any tutor`}
          options={[{ value: 'true', label: t`Offers a trial` }]}
          onChange={() => apply()}
        />
        <PriceField id="tutor-min-price" name="minPrice" label={t`Min price (${unit})`} params={params} />
        <PriceField id="tutor-max-price" name="maxPrice" label={t`Max price (${unit})`} params={params} />
        <Select
          label={t`Sort by`}
          name="sort"
          value={shownSort(params.get('sort'), text)}
          options={TUTOR_SORTS.map((sort) => {
            const name = t(SORT_LABELS[sort]);
            return sort === 'relevance' && !text.trim()
              ? { value: sort, label: t`${name} (needs search text)`, disabled: true }
              : { value: sort, label: name };
          })}
          onChange={() => apply()}
        />
        <div className="col-span-2 md:hidden">
          <button
            id="tutor-filters-done"
            type="submit"
            data-closes-filters="true"
            className={buttonClass('primary', 'md', 'w-full')}
          >
            <Trans>Show results</Trans>
          </button>
        </div>
      </div>
    </form>
  );
}
