/**
 * Every page path of the app, in one typed module. The server uses the same table to answer
 * a known page with 200 and an unknown one with 404.
 */
export const paths = {
  home: '/',
  contact: '/contact',
  login: '/login',
  signup: '/signup',
  verifyEmail: '/verify-email',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  schedule: '/schedule',
  profile: '/profile',
  tutors: '/tutors',
} as const;

/** A tutor's public page. */
export const tutorPath = (id: string) => `${paths.tutors}/${encodeURIComponent(id)}`;

export type PagePath = (typeof paths)[keyof typeof paths];

const knownPaths = new Set<string>(Object.values(paths));

/** True when the browser app has a page for this path (trailing slash tolerated). */
export function isKnownPagePath(pathname: string): boolean {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return knownPaths.has(trimmed) || /^\/tutors\/[\w-]{1,64}$/.test(trimmed);
}

/**
 * The module that renders each page, as the client router lazy-loads it (the keys of Vite's
 * manifest): the server preloads the current page's code with the HTML. A unit test keeps this
 * table and the router in step.
 */
export const pageModules: Record<string, string> = {
  [paths.home]: 'features/home/home-page.tsx',
  [paths.contact]: 'features/contact/contact-page.tsx',
  [paths.login]: 'features/auth/login-page.tsx',
  [paths.signup]: 'features/auth/signup-page.tsx',
  [paths.verifyEmail]: 'features/auth/verify-email-page.tsx',
  [paths.forgotPassword]: 'features/auth/forgot-password-page.tsx',
  [paths.resetPassword]: 'features/auth/reset-password-page.tsx',
  [paths.dashboard]: 'features/dashboard/dashboard-page.tsx',
  [paths.schedule]: 'features/schedule/schedule-page.tsx',
  [paths.profile]: 'features/profile/profile-page.tsx',
  [paths.tutors]: 'features/tutors/tutor-search-page.tsx',
  tutor: 'features/tutors/tutor-page.tsx',
  notFound: 'features/not-found/not-found-page.tsx',
};

export function pageModuleFor(pathname: string): string {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (/^\/tutors\/[\w-]{1,64}$/.test(trimmed)) return pageModules.tutor as string;
  return pageModules[trimmed] ?? (pageModules.notFound as string);
}
