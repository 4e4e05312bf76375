import { Link } from 'react-router';
import { paths } from '../../../shared/routes';

export function Component() {
  return (
    <section className="mx-auto max-w-xl px-4 py-20 text-center">
      <title>Page not found · Tutorlane</title>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-bold">Page not found</h1>
      <p className="mt-4 text-slate-600">The page you are looking for does not exist or has moved.</p>
      <Link
        to={paths.home}
        className="mt-8 inline-block rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        Back to home
      </Link>
    </section>
  );
}
