import { Link } from 'react-router';
import { paths } from '../../../shared/routes';

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <p>© {new Date().getFullYear()} Tutorlane. Learn with tutors you can trust.</p>
        <ul className="flex gap-4">
          <li>
            <Link to={paths.contact} className="hover:text-slate-900">
              Contact
            </Link>
          </li>
          <li>
            <Link to={`${paths.signup}?role=tutor`} className="hover:text-slate-900">
              Become a tutor
            </Link>
          </li>
        </ul>
      </div>
    </footer>
  );
}
