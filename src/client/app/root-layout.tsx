import { Trans, useLingui } from '@lingui/react/macro';
import { Outlet, useNavigation } from 'react-router';
import { Footer, NavBar } from '../features/navigation';

export function RootLayout() {
  const navigation = useNavigation();
  const { t } = useLingui();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        <Trans>Skip to content</Trans>
      </a>
      <NavBar />
      {navigation.state === 'loading' ? (
        <div
          className="fixed inset-x-0 top-0 z-40 h-0.5 animate-pulse bg-brand-600"
          role="progressbar"
          aria-label={t`Loading page`}
        />
      ) : null}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
