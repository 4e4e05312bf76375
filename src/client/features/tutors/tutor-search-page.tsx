/**
 * /tutors: search and filter published tutors. Every filter lives in the URL, so a search can be
 * shared and the back button returns to it; the loader fetches whatever the URL says.
 */
import { type FormEvent, useId } from 'react';
import {
  Link,
  type LoaderFunctionArgs,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
} from 'react-router';
import { SUBJECT_CATEGORIES } from '../../../shared/constants';
import { paths } from '../../../shared/routes';
import {
  SPOKEN_LANGUAGES,
  SUBJECTS,
  SUBJECTS_BY_CATEGORY,
  type SubjectCategory,
  TUTOR_SORT_LABELS,
  TUTOR_SORTS,
} from '../../../shared/tutor-catalog';
import type { TutorSearchResult } from '../../../shared/tutor-schemas';
import { buttonClass } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { fieldClass } from '../../components/text-field';
import { ApiError } from '../../lib/api-client';
import { cleanSearch, searchTutors } from './tutor-api';
import { TutorCard } from './tutor-card';

type LoaderData = { result: TutorSearchResult; error: null } | { result: null; error: string };

export async function loader({ request }: LoaderFunctionArgs): Promise<LoaderData> {
  try {
    return { result: await searchTutors(new URL(request.url).searchParams, request.signal), error: null };
  } catch (caught) {
    if (caught instanceof ApiError) return { result: null, error: caught.message };
    throw caught;
  }
}

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
  options: readonly (string | { value: string; label: string })[];
  anyLabel?: string;
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div>
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
          const { value: optionValue, label: optionLabel } =
            typeof option === 'string' ? { value: option, label: option } : option;
          return (
            <option key={optionValue} value={optionValue}>
              {optionLabel}
            </option>
          );
        })}
      </select>
    </div>
  );
}

export function Component() {
  const data = useLoaderData<LoaderData>();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const params = new URLSearchParams(location.search);
  const searching = navigation.state === 'loading' && navigation.location?.pathname === paths.tutors;
  const category = params.get('category') ?? '';
  const subjects =
    category in SUBJECTS_BY_CATEGORY ? SUBJECTS_BY_CATEGORY[category as SubjectCategory] : SUBJECTS;

  /** Every change is a new history entry: the back button walks back through the searches. */
  const go = (changes: Record<string, string>) => {
    const next = cleanSearch(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    const query = next.toString();
    navigate(`${paths.tutors}${query ? `?${query}` : ''}`);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    go({
      q: String(form.get('q') ?? ''),
      minPrice: String(form.get('minPrice') ?? ''),
      maxPrice: String(form.get('maxPrice') ?? ''),
    });
  };

  const result = data.result;
  const pages = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1;
  const pageLink = (page: number) => {
    const next = cleanSearch(params);
    if (page > 1) next.set('page', String(page));
    else next.delete('page');
    return `${paths.tutors}?${next.toString()}`;
  };
  const filtered = cleanSearch(params).toString() !== '';

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>Find a tutor · Tutorlane</title>
      <header className="max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Find a tutor</h1>
        <p className="mt-2 text-slate-700">
          Every tutor here has verified their email and completed their profile.
        </p>
      </header>

      <search
        aria-label="Tutors"
        className="mt-8 block rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <form onSubmit={onSubmit} key={location.search} className="grid grid-cols-2 gap-4 lg:grid-cols-6">
          <div className="col-span-2 lg:col-span-3">
            <label htmlFor="tutor-search-text" className="block text-sm font-medium text-slate-800">
              Search
            </label>
            <input
              id="tutor-search-text"
              type="search"
              name="q"
              defaultValue={params.get('q') ?? ''}
              placeholder="Subject, name or keyword"
              maxLength={100}
              className={fieldClass}
            />
          </div>
          <div>
            <label htmlFor="tutor-min-price" className="block text-sm font-medium text-slate-800">
              Min price ($)
            </label>
            <input
              id="tutor-min-price"
              name="minPrice"
              type="number"
              inputMode="numeric"
              min={0}
              max={500}
              defaultValue={params.get('minPrice') ?? ''}
              className={fieldClass}
            />
          </div>
          <div>
            <label htmlFor="tutor-max-price" className="block text-sm font-medium text-slate-800">
              Max price ($)
            </label>
            <input
              id="tutor-max-price"
              name="maxPrice"
              type="number"
              inputMode="numeric"
              min={0}
              max={500}
              defaultValue={params.get('maxPrice') ?? ''}
              className={fieldClass}
            />
          </div>
          <div className="col-span-2 flex items-end lg:col-span-1">
            <button type="submit" className={buttonClass('primary', 'md', 'w-full')}>
              Search
            </button>
          </div>
          <Select
            label="Category"
            name="category"
            value={category}
            anyLabel="All categories"
            options={SUBJECT_CATEGORIES}
            onChange={(value) => go({ category: value, subject: '' })}
          />
          <Select
            label="Subject"
            name="subject"
            value={params.get('subject') ?? ''}
            anyLabel="All subjects"
            options={subjects}
            onChange={(value) => go({ subject: value })}
          />
          <Select
            label="Language"
            name="language"
            value={params.get('language') ?? ''}
            anyLabel="Any language"
            options={SPOKEN_LANGUAGES}
            onChange={(value) => go({ language: value })}
          />
          <Select
            label="Sort by"
            name="sort"
            value={params.get('sort') ?? (params.get('q') ? 'relevance' : 'newest')}
            options={TUTOR_SORTS.map((sort) => ({ value: sort, label: TUTOR_SORT_LABELS[sort] }))}
            onChange={(value) => go({ sort: value })}
          />
        </form>
      </search>

      <div className="mt-6 flex min-h-8 flex-wrap items-center justify-between gap-3">
        <p aria-live="polite" className="flex items-center gap-2 font-medium text-slate-800">
          {searching ? (
            <>
              <Spinner /> Searching…
            </>
          ) : result ? (
            `${result.total.toLocaleString('en-US')} ${result.total === 1 ? 'tutor' : 'tutors'} found`
          ) : null}
        </p>
        {filtered ? (
          <Link
            to={paths.tutors}
            className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            Clear all filters
          </Link>
        ) : null}
      </div>

      {data.error ? (
        <div className="mt-4">
          <ErrorMessage>{data.error}</ErrorMessage>
        </div>
      ) : null}

      {result && result.tutors.length === 0 ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="text-lg font-semibold text-slate-900">No tutors match your search</h2>
          <p className="mt-2 text-slate-700">
            Try fewer words, another subject or category, a wider price range, or any language.
          </p>
          <Link to={paths.tutors} className={buttonClass('secondary', 'md', 'mt-5')}>
            Show all tutors
          </Link>
        </div>
      ) : null}

      {result && result.tutors.length > 0 ? (
        <>
          <ul className={`mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-3 ${searching ? 'opacity-60' : ''}`}>
            {result.tutors.map((tutor) => (
              <li key={tutor.id}>
                <TutorCard tutor={tutor} search={location.search} />
              </li>
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label="Pagination" className="mt-8 flex items-center justify-between gap-4">
              {result.page > 1 ? (
                <Link to={pageLink(result.page - 1)} className={buttonClass('secondary')}>
                  Previous
                </Link>
              ) : (
                <span />
              )}
              <p className="text-sm text-slate-700">
                Page {result.page} of {pages}
              </p>
              {result.page < pages ? (
                <Link to={pageLink(result.page + 1)} className={buttonClass('secondary')}>
                  Next
                </Link>
              ) : (
                <span />
              )}
            </nav>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
