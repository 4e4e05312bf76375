import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from './app/router';
import { AuthProvider, authStore, reportTimeZoneOnce } from './features/auth';
import { i18n, loadPageLanguage } from './lib/i18n';
import './styles.css';

/**
 * Ends the current task: the browser may handle input or paint before the next step runs. A
 * message rather than a timer, which browsers slow to once a second in a tab opened behind others.
 */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/**
 * Start-up in three tasks rather than one: loading the code, creating the router (which starts
 * the current page's loaders and chunk) and the first render each take tens of milliseconds on a
 * slow phone, and one task holding all of them blocks the page that long.
 * Not a top-level await: that would make the bundler split every module the pages share out of
 * the entry chunk, one more request each.
 */
async function start(container: HTMLElement) {
  // The page's catalogue, fetched while the router's first task runs: nothing is shown before it.
  const language = loadPageLanguage();
  await nextTask();
  const router = createAppRouter();
  await language;
  await nextTask();
  createRoot(container).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <AuthProvider store={authStore}>
          <RouterProvider router={router} />
        </AuthProvider>
      </I18nProvider>
    </StrictMode>,
  );
  // After the first render: nothing on screen waits for it.
  reportTimeZoneOnce(authStore);
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
void start(container);
