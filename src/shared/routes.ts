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
