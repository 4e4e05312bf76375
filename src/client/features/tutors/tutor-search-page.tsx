/**
 * /tutors: search and filter published tutors. Every filter lives in the URL, so a search can be
 * shared and the back button returns to it; the loader fetches whatever the URL says.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import {
  Link,
  type LoaderFunctionArgs,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
} from 'react-router';
import { paths } from '../../../shared/routes';
import { buttonClass } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { ApiError } from '../../lib/api';
import { cleanSearch, searchTutors, type TutorSearchResult } from './tutor-api';
import { TutorCard } from './tutor-card';
import { SearchForm } from './tutor-search-form';

type LoaderData = { result: TutorSearchResult; error: null } | { result: null; error: string };

export async function loader({ request }: LoaderFunctionArgs): Promise<LoaderData> {
  try {
    return { result: await searchTutors(new URL(request.url).searchParams, request.signal), error: null };
  } catch (caught) {
    if (caught instanceof ApiError) return { result: null, error: caught.message };
    throw caught;
  }
}

export function Component() {
  const { t } = useLingui();
  const data = useLoaderData<LoaderData>();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const params = new URLSearchParams(location.search);
  const searching = navigation.state === 'loading' && navigation.location?.pathname === paths.tutors;

  const result = data.result;
  const total = result?.total ?? 0;
  const page = result?.page ?? 1;
  const pages = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1;
  const pageLink = (page: number) => {
    const next = cleanSearch(params);
    if (page > 1) next.set('page', String(page));
    else next.delete('page');
    const query = next.toString();
    return `${paths.tutors}${query ? `?${query}` : ''}`;
  };
  const filtered = cleanSearch(params).toString() !== '';
  // A page number past the last page (an old link, a hand-edited URL): the search itself found tutors.
  const pastTheEnd = result !== null && result.tutors.length === 0 && result.total > 0;
  // No filter at all and nobody found: the marketplace has no tutors yet.
  const noTutorsYet = result !== null && result.total === 0 && !filtered;

  // Another page of the same search (Next, Previous): the view and the focus go to the top of the
  // results, where reading that page begins, not to where the link was.
  const resultsTop = useRef<HTMLParagraphElement>(null);
  const pageKey = params.get('page') ?? '1';
  const searchKey = cleanSearch(params);
  searchKey.delete('page');
  const shown = useRef({ search: searchKey.toString(), page: pageKey });
  // Whether a phone shows the filters: kept here, as the form is made anew after each search.
  const [filtersOpen, setFiltersOpen] = useState(false);
  // The control that applied a search gets the focus back in the form made anew for its answer.
  const refocus = useRef('');
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new search's form is a new one to focus in
  useEffect(() => {
    const selector = refocus.current;
    refocus.current = '';
    if (selector) document.querySelector<HTMLElement>(`search ${selector}`)?.focus({ preventScroll: true });
  }, [location.search]);
  useEffect(() => {
    const before = shown.current;
    shown.current = { search: searchKey.toString(), page: pageKey };
    if (before.search === shown.current.search && before.page !== pageKey) {
      resultsTop.current?.focus({ preventScroll: true });
      resultsTop.current?.scrollIntoView({ block: 'start' });
    }
  });

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>{t`Find a tutor · Tutorlane`}</title>
      <header className="max-w-2xl">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          <Trans>Find a tutor</Trans>
        </h1>
        <p className="mt-2 text-slate-700">
          <Trans>Every tutor here has verified their email and completed their profile.</Trans>
        </p>
      </header>

      <search
        aria-label={t`Tutors`}
        className="mt-8 block rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <SearchForm
          key={location.search}
          params={params}
          filtersOpen={filtersOpen}
          onFiltersOpen={setFiltersOpen}
          onSearch={(next, focused) => {
            refocus.current = focused;
            const query = next.toString();
            navigate(`${paths.tutors}${query ? `?${query}` : ''}`);
          }}
        />
      </search>

      <div className="mt-6 flex min-h-8 flex-wrap items-center justify-between gap-3">
        <p
          ref={resultsTop}
          tabIndex={-1}
          aria-live="polite"
          className="flex scroll-mt-24 items-center gap-2 font-medium text-slate-800"
        >
          {searching ? (
            <>
              <Spinner /> <Trans>Searching…</Trans>
            </>
          ) : result ? (
            <Plural value={total} one="# tutor found" other="# tutors found" />
          ) : null}
        </p>
        {filtered ? (
          <Link
            to={paths.tutors}
            className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            <Trans>Clear all filters</Trans>
          </Link>
        ) : null}
      </div>

      {data.error ? (
        <div className="mt-4">
          <ErrorMessage>{data.error}</ErrorMessage>
        </div>
      ) : null}

      {result && pastTheEnd ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>There is no page {page}</Trans>
          </h2>
          <p className="mt-2 text-slate-700">
            <Plural
              value={pages}
              one="This search has one page of tutors."
              other="This search has # pages of tutors."
            />
          </p>
          <Link to={pageLink(pages)} className={buttonClass('secondary', 'md', 'mt-5')}>
            {pages === 1 ? <Trans>Go to the results</Trans> : <Trans>Go to the last page ({pages})</Trans>}
          </Link>
        </div>
      ) : null}

      {noTutorsYet ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>There are no tutors here yet</Trans>
          </h2>
          <p className="mt-2 text-slate-700">
            <Trans>
              Tutors appear once they have verified their email and completed their profile. Teach something
              yourself?
            </Trans>
          </p>
          <Link to={`${paths.signup}?role=tutor`} className={buttonClass('secondary', 'md', 'mt-5')}>
            <Trans>Become a tutor</Trans>
          </Link>
        </div>
      ) : null}

      {result && result.total === 0 && !noTutorsYet ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>No tutors match your search</Trans>
          </h2>
          <p className="mt-2 text-slate-700">
            <Trans>Try fewer words, another subject or category, a wider price range, or any language.</Trans>
          </p>
          <Link to={paths.tutors} className={buttonClass('secondary', 'md', 'mt-5')}>
            <Trans>Show all tutors</Trans>
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
            <nav aria-label={t`Pagination`} className="mt-8 flex items-center justify-between gap-4">
              {result.page > 1 ? (
                <Link to={pageLink(result.page - 1)} className={buttonClass('secondary')}>
                  <Trans>Previous</Trans>
                </Link>
              ) : (
                <span />
              )}
              <p className="text-sm text-slate-700">
                <Trans>
                  Page {page} of {pages}
                </Trans>
              </p>
              {result.page < pages ? (
                <Link to={pageLink(result.page + 1)} className={buttonClass('secondary')}>
                  <Trans>Next</Trans>
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
