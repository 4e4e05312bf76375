/**
 * The route table of the seed (seed-spec section 2), as a React Router data router. Every page is
 * its own chunk, loaded when first visited, so the first paint carries only the page in view.
 */
import { createBrowserRouter } from 'react-router';
import { paths } from '../../shared/routes';
import { RootLayout } from './root-layout';

export const router = createBrowserRouter([
  {
    path: paths.home,
    Component: RootLayout,
    children: [
      { index: true, lazy: () => import('../features/home/home-page') },
      { path: paths.contact, lazy: () => import('../features/contact/contact-page') },
      { path: paths.login, lazy: () => import('../features/auth/login-page') },
      { path: paths.signup, lazy: () => import('../features/auth/signup-page') },
      { path: paths.verifyEmail, lazy: () => import('../features/auth/verify-email-page') },
      { path: paths.forgotPassword, lazy: () => import('../features/auth/forgot-password-page') },
      { path: paths.resetPassword, lazy: () => import('../features/auth/reset-password-page') },
      { path: paths.dashboard, lazy: () => import('../features/dashboard/dashboard-page') },
      { path: paths.schedule, lazy: () => import('../features/schedule/schedule-page') },
      { path: '*', lazy: () => import('../features/not-found/not-found-page') },
    ],
  },
]);
