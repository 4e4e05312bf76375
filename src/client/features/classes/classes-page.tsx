/**
 * /classes: the group classes still to come, with filters in the URL (subject, language, a day
 * in the visitor's zone, a highest price a session) so a search can be shared and the back button
 * returns to it. A tutor finds the way to create one here.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Link,
  type LoaderFunctionArgs,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
} from 'react-router';
import { unitsToMinor } from '../../../shared/amounts';
import { paths } from '../../../shared/routes';
import { ButtonLink, buttonClass } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { ApiError } from '../../lib/api';
import { getPaymentsConfig } from '../../lib/payments-config';
import { browserTimeZone } from '../../lib/time-zones';
import { authStore, useAuth } from '../auth';
import { type ClassList, listClasses, type ClassFilters as Query } from './class-api';
import { ClassCard } from './class-card';
import { ClassFilters, cleanFilters } from './class-filters';

type LoaderData = { result: ClassList; error: null } | { result: null; error: string };

/** The zone the visitor reads times in: their saved one, else the browser's. */
const viewerZone = () => authStore.getState().user?.timeZone ?? browserTimeZone();

/** The URL's filters as the API takes them: a day becomes its span in the visitor's zone. */
async function queryOf(params: URLSearchParams): Promise<Query> {
  const query: Query = {};
  const subject = params.get('subject');
  const language = params.get('language');
  const day = params.get('day');
  const maxPrice = params.get('maxPrice');
  const page = params.get('page');
  if (subject) query.subject = subject;
  if (language) query.language = language;
  if (page) query.page = page;
  if (maxPrice && /^\d{1,7}$/.test(maxPrice)) {
    const { currency } = await getPaymentsConfig();
    query.maxPriceCents = String(unitsToMinor(Number(maxPrice), currency));
  }
  if (day && /^\d{4}-\d{2}-\d{2}$/.test(day)) {
    // The calendar code is fetched only for a search by day: the list itself does without it.
    const { addDays, startOfLocalDay } = await import('../../../shared/lessons/lesson-times');
    const zone = viewerZone();
    try {
      query.from = new Date(startOfLocalDay(day, zone)).toISOString();
      query.to = new Date(startOfLocalDay(addDays(day, 1), zone)).toISOString();
    } catch {
      // Not a date of the calendar (2026-02-31): the list is not narrowed by it.
    }
  }
  return query;
}

export async function loader({ request }: LoaderFunctionArgs): Promise<LoaderData> {
  try {
    const query = await queryOf(new URL(request.url).searchParams);
    return { result: await listClasses(query, request.signal), error: null };
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
  const auth = useAuth();
  const params = new URLSearchParams(location.search);
  const searching = navigation.state === 'loading' && navigation.location?.pathname === paths.classes;
  const timeZone = auth.user?.timeZone ?? browserTimeZone();
  const tutor = auth.status === 'signed-in' && auth.user.role === 'tutor';
  const result = data.result;
  const total = result?.total ?? 0;
  const page = result?.page ?? 1;
  const pages = result ? Math.max(1, Math.ceil(result.total / result.pageSize)) : 1;
  const filtered = [...cleanFilters(params).keys()].some((key) => key !== 'page');
  const go = (next: URLSearchParams) => {
    const query = next.toString();
    navigate(`${paths.classes}${query ? `?${query}` : ''}`);
  };
  const pageLink = (to: number) => {
    const next = cleanFilters(params);
    if (to > 1) next.set('page', String(to));
    else next.delete('page');
    const query = next.toString();
    return `${paths.classes}${query ? `?${query}` : ''}`;
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>{t`Group classes · Tutorlane`}</title>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="max-w-2xl">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            <Trans>Group classes</Trans>
          </h1>
          <p className="mt-2 text-slate-700">
            <Trans>
              Learn with a few others: up to five students and their tutor in one room, paid session by
              session.
            </Trans>
          </p>
        </div>
        {tutor ? (
          <ButtonLink to={paths.newClass}>
            <Trans>Create a class</Trans>
          </ButtonLink>
        ) : null}
      </header>

      <search
        aria-label={t`Filter classes`}
        className="mt-8 block rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <ClassFilters key={location.search} params={params} onApply={go} />
      </search>

      <div className="mt-6 flex min-h-8 flex-wrap items-center justify-between gap-3">
        <p aria-live="polite" className="flex items-center gap-2 font-medium text-slate-800">
          {searching ? (
            <>
              <Spinner /> <Trans>Looking for classes…</Trans>
            </>
          ) : result ? (
            <Plural value={total} one="# class found" other="# classes found" />
          ) : null}
        </p>
        {filtered ? (
          <Link
            to={paths.classes}
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

      {result && result.classes.length === 0 ? (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="text-lg font-semibold text-slate-900">
            {filtered ? (
              <Trans>No class matches these filters</Trans>
            ) : (
              <Trans>No classes coming up yet</Trans>
            )}
          </h2>
          <p className="mt-2 text-slate-700">
            {filtered ? (
              <Trans>Try another day, subject or language, or a higher price.</Trans>
            ) : (
              <Trans>
                Tutors announce their group classes here. Come back soon, or find a tutor for one-on-one
                lessons.
              </Trans>
            )}
          </p>
          <Link
            to={filtered ? paths.classes : paths.tutors}
            className={buttonClass('secondary', 'md', 'mt-5')}
          >
            {filtered ? <Trans>Show all classes</Trans> : <Trans>Find a tutor</Trans>}
          </Link>
        </div>
      ) : null}

      {result && result.classes.length > 0 ? (
        <>
          <ul className={`mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-3 ${searching ? 'opacity-60' : ''}`}>
            {result.classes.map((view) => (
              <li key={view.id}>
                <ClassCard view={view} timeZone={timeZone} />
              </li>
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label={t`Pagination`} className="mt-8 flex items-center justify-between gap-4">
              {page > 1 ? (
                <Link to={pageLink(page - 1)} className={buttonClass('secondary')}>
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
              {page < pages ? (
                <Link to={pageLink(page + 1)} className={buttonClass('secondary')}>
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
