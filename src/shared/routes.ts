/**
 * The app's pages, in one table: each page's path, the module that renders it and who may open it.
 * The browser's router is built from it (src/client/app/router.tsx), and the server uses it to
 * answer a known page with 200 and an unknown one with 404, and to preload the page's code.
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
  availability: '/availability',
  messages: '/messages',
  profile: '/profile',
  wallet: '/wallet',
  tutors: '/tutors',
  classes: '/classes',
  newClass: '/classes/new',
  family: '/family',
  admin: '/admin',
  adminVerifications: '/admin/verifications',
  adminReports: '/admin/reports',
  adminAudit: '/admin/audit',
  adminContact: '/admin/contact',
  adminSettings: '/admin/settings',
  adminFinance: '/admin/finance',
  adminTwoFactor: '/admin/two-factor',
  adminLessons: '/admin/lessons',
  adminClasses: '/admin/classes',
  adminFamilies: '/admin/families',
} as const;

/** A family invitation's mailed link (a child's own login, or a student's parent). */
export const familyInvitationPath = (token: string) =>
  `${paths.family}/invitations/${encodeURIComponent(token)}`;

/** A tutor's public page. */
export const tutorPath = (id: string) => `${paths.tutors}/${encodeURIComponent(id)}`;

/**
 * Who may open a page; the server checks the data behind it again.
 * - guest: signed-in verified users go on to the dashboard (sign-in, sign-up);
 * - verify: like guest, but a mailed link (?token=) is spent whoever is signed in;
 * - verified: signed out goes to sign in (and back here after), unverified to /verify-email;
 * - signed-in: any signed-in user;
 * - admin: operators only; signed out goes to sign in, anyone else to the dashboard.
 */
export type PageAccess = 'public' | 'guest' | 'verify' | 'verified' | 'signed-in' | 'admin';

export interface Page {
  /** React Router's path pattern. */
  path: string;
  /** The module under src/client that renders it, as Vite's manifest names it. */
  module: string;
  access: PageAccess;
}

export const pages = [
  { path: paths.home, module: 'features/home/home-page.tsx', access: 'public' },
  { path: paths.contact, module: 'features/contact/contact-page.tsx', access: 'public' },
  { path: paths.login, module: 'features/auth/login-page.tsx', access: 'guest' },
  { path: paths.signup, module: 'features/auth/signup-page.tsx', access: 'guest' },
  { path: paths.verifyEmail, module: 'features/auth/verify-email-page.tsx', access: 'verify' },
  { path: paths.forgotPassword, module: 'features/auth/forgot-password-page.tsx', access: 'public' },
  { path: paths.resetPassword, module: 'features/auth/reset-password-page.tsx', access: 'public' },
  { path: paths.dashboard, module: 'features/dashboard/dashboard-page.tsx', access: 'verified' },
  { path: paths.schedule, module: 'features/schedule/schedule-page.tsx', access: 'verified' },
  { path: paths.availability, module: 'features/availability/availability-page.tsx', access: 'verified' },
  { path: paths.messages, module: 'features/messages/messages-page.tsx', access: 'verified' },
  { path: `${paths.messages}/:id`, module: 'features/messages/messages-page.tsx', access: 'verified' },
  { path: paths.profile, module: 'features/profile/profile-page.tsx', access: 'signed-in' },
  { path: paths.wallet, module: 'features/wallet/wallet-page.tsx', access: 'verified' },
  { path: paths.tutors, module: 'features/tutors/tutor-search-page.tsx', access: 'public' },
  { path: `${paths.tutors}/:id`, module: 'features/tutors/tutor-page.tsx', access: 'public' },
  { path: paths.classes, module: 'features/classes/classes-page.tsx', access: 'public' },
  { path: paths.family, module: 'features/family/family-page.tsx', access: 'verified' },
  // Public: the invited child has no account yet, and an invited parent may have none either.
  {
    path: `${paths.family}/invitations/:token`,
    module: 'features/family/family-invitation-page.tsx',
    access: 'public',
  },
  // Before the class's own page, whose `:id` would match "new" too.
  { path: paths.newClass, module: 'features/classes/new-class-page.tsx', access: 'verified' },
  { path: `${paths.classes}/:id`, module: 'features/classes/class-page.tsx', access: 'public' },
  { path: '/lessons/:id/room', module: 'features/room/room-page.tsx', access: 'verified' },
  {
    path: '/classes/:id/sessions/:sessionId/room',
    module: 'features/room/class-room-page.tsx',
    access: 'verified',
  },
  { path: paths.admin, module: 'features/admin/admin-overview-page.tsx', access: 'admin' },
  { path: paths.adminVerifications, module: 'features/admin/admin-verifications-page.tsx', access: 'admin' },
  { path: paths.adminReports, module: 'features/admin/admin-reports-page.tsx', access: 'admin' },
  { path: paths.adminAudit, module: 'features/admin/admin-audit-page.tsx', access: 'admin' },
  { path: paths.adminContact, module: 'features/admin/admin-contact-page.tsx', access: 'admin' },
  { path: paths.adminSettings, module: 'features/admin/admin-settings-page.tsx', access: 'admin' },
  { path: paths.adminFinance, module: 'features/admin/admin-finance-page.tsx', access: 'admin' },
  { path: paths.adminTwoFactor, module: 'features/admin/admin-two-factor-page.tsx', access: 'admin' },
  { path: paths.adminLessons, module: 'features/admin/admin-lessons-page.tsx', access: 'admin' },
  { path: paths.adminClasses, module: 'features/admin/admin-classes-page.tsx', access: 'admin' },
  { path: paths.adminFamilies, module: 'features/admin/admin-families-page.tsx', access: 'admin' },
  { path: '/students/:id', module: 'features/progress/history-page.tsx', access: 'verified' },
  { path: `${paths.tutors}/:id/lessons`, module: 'features/progress/history-page.tsx', access: 'verified' },
] as const satisfies readonly Page[];

/** A tutor's page for one of their students: lessons, notes and goals. */
export const studentPath = (id: string) => `/students/${encodeURIComponent(id)}`;

/** A student's lessons with one tutor, with the tutor's notes. */
export const tutorLessonsPath = (id: string) => `${tutorPath(id)}/lessons`;

/** Opens the visitor's conversation with support (made on first use); sign-in leads back here. */
export const supportChatPath = `${paths.messages}?support=1`;

/** A group class's page. */
export const classPath = (id: string) => `${paths.classes}/${encodeURIComponent(id)}`;

/** A group class session's room. */
export const classRoomPath = (classId: string, sessionId: string) =>
  `${classPath(classId)}/sessions/${encodeURIComponent(sessionId)}/room`;

/** A lesson's room. */
export const roomPath = (lessonId: string) => `/lessons/${encodeURIComponent(lessonId)}/room`;

/** What every unknown path shows (with status 404 from the server). */
export const notFoundModule = 'features/not-found/not-found-page.tsx';

const trimSlash = (pathname: string) =>
  pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;

/** A page path with `:param` segments as a pattern: each one an id of 1 to 64 word characters or dashes. */
const patternOf = (path: string) => new RegExp(`^${path.replace(/:\w+/g, '[\\w-]{1,64}')}$`);
const patterns = new Map<string, RegExp>(
  pages.filter((page) => page.path.includes(':')).map((page) => [page.path, patternOf(page.path)]),
);

/** The page a path opens (ids in its `:param` segments, a trailing slash tolerated), or undefined. */
export function pageFor(pathname: string): Page | undefined {
  const path = trimSlash(pathname);
  return pages.find((page) => patterns.get(page.path)?.test(path) ?? page.path === path);
}

/** True when the browser app has a page for this path. */
export const isKnownPagePath = (pathname: string) => pageFor(pathname) !== undefined;

/** The module that renders this path (the Not Found page's for an unknown one). */
export const pageModuleFor = (pathname: string) => pageFor(pathname)?.module ?? notFoundModule;

/**
 * Where to go after signing in, from a ?redirectTo= parameter: only a page of this site meant for
 * signed-in visitors. The target is resolved as a browser would resolve it (which drops tabs and
 * line breaks, and reads `//host` and `/\host` as another site), and only its path, query and
 * fragment are kept.
 */
export function safeRedirect(target: string | null | undefined): string | undefined {
  if (!target?.startsWith('/')) return undefined;
  const base = 'http://tutorlane.invalid';
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base) return undefined;
  const page = pageFor(url.pathname);
  if (!page || page.access === 'guest' || page.access === 'verify') return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
