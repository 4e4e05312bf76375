import { Link, NavLink } from 'react-router';
import { paths } from '../../../shared/routes';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100'}`;

export function NavBar() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center gap-2 px-4 py-3">
        <Link to={paths.home} className="mr-4 text-lg font-bold text-brand-700">
          Tutorlane
        </Link>
        <NavLink to={paths.home} end className={linkClass}>
          Home
        </NavLink>
        <NavLink to={paths.schedule} className={linkClass}>
          Schedule
        </NavLink>
        <NavLink to={paths.contact} className={linkClass}>
          Contact Us
        </NavLink>
        <span className="ml-auto" />
        <NavLink to={paths.login} className={linkClass}>
          Login
        </NavLink>
        <NavLink to={paths.signup} className={linkClass}>
          Sign Up
        </NavLink>
      </nav>
    </header>
  );
}
