import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { paths } from '../../../shared/routes';
import { LanguageSelect } from './language-select';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
        <p>
          <Trans>© {year} Tutorlane. Learn with tutors you can trust.</Trans>
        </p>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-4">
          <ul className="flex gap-4">
            <li>
              <Link to={paths.contact} className="hover:text-slate-900">
                <Trans>Contact</Trans>
              </Link>
            </li>
            <li>
              <Link to={`${paths.signup}?role=tutor`} className="hover:text-slate-900">
                <Trans>Become a tutor</Trans>
              </Link>
            </li>
          </ul>
          <LanguageSelect />
        </div>
      </div>
    </footer>
  );
}
