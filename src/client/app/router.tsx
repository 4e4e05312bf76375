/**
 * The route table of the seed (seed-spec section 2), as a React Router data router. Every page is
 * its own chunk, loaded when first visited. The root loader waits for the first auth status, so
 * nothing renders before it is known, and the guards run as loaders before a page renders.
 */
import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '../../shared/routes';
import { authStore } from '../features/auth/auth-store';
import { guestOnly, signedInOnly, verifiedOnly, verifyEmailGuard } from '../features/auth/route-guards';
import { RootLayout } from './root-layout';

const routes: RouteObject[] = [
  {
    path: paths.home,
    Component: RootLayout,
    loader: () => authStore.ready(),
    HydrateFallback: () => null,
    children: [
      { index: true, lazy: () => import('../features/home/home-page') },
      { path: paths.contact, lazy: () => import('../features/contact/contact-page') },
      { path: paths.login, loader: guestOnly, lazy: () => import('../features/auth/login-page') },
      { path: paths.signup, loader: guestOnly, lazy: () => import('../features/auth/signup-page') },
      {
        path: paths.verifyEmail,
        loader: verifyEmailGuard,
        lazy: () => import('../features/auth/verify-email-page'),
      },
      { path: paths.forgotPassword, lazy: () => import('../features/auth/forgot-password-page') },
      { path: paths.resetPassword, lazy: () => import('../features/auth/reset-password-page') },
      {
        path: paths.dashboard,
        loader: verifiedOnly,
        lazy: () => import('../features/dashboard/dashboard-page'),
      },
      {
        path: paths.schedule,
        loader: verifiedOnly,
        lazy: () => import('../features/schedule/schedule-page'),
      },
      { path: paths.profile, loader: signedInOnly, lazy: () => import('../features/profile/profile-page') },
      { path: paths.tutors, lazy: () => import('../features/tutors/tutor-search-page') },
      { path: `${paths.tutors}/:id`, lazy: () => import('../features/tutors/tutor-page') },
      { path: '*', lazy: () => import('../features/not-found/not-found-page') },
    ],
  },
];

/** The app's router. Creating it starts loading the current page: its guards and its chunk. */
export const createAppRouter = () => createBrowserRouter(routes);
