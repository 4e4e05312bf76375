/**
 * The app's router, built from the page table (src/shared/routes.ts): each page is its own chunk,
 * loaded when first visited, behind the guard its access names. A page module exports its
 * `Component`, and its `loader`, `action` and `shouldRevalidate` when it has them. The root loader
 * waits for the first auth status, so nothing renders before it is known; every page's errors are
 * caught inside the layout (RouteError), so the navigation stays.
 */
import type { ComponentType } from 'react';
import {
  type ActionFunction,
  createBrowserRouter,
  type LoaderFunction,
  type RouteObject,
  type ShouldRevalidateFunction,
} from 'react-router';
import { notFoundModule, type Page, pages } from '../../shared/routes';
import { authStore, guards } from '../features/auth';
import { loadPageTexts } from '../lib/i18n';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';

interface PageModule {
  Component: ComponentType;
  loader?: LoaderFunction;
  action?: ActionFunction;
  shouldRevalidate?: ShouldRevalidateFunction;
}

const pageModules = import.meta.glob<PageModule>('../features/*/*-page.tsx');

/**
 * Where the browser has no Temporal of its own, the polyfill, installed before any page's code
 * runs: the pages read the global (src/client/lib/temporal.ts).
 */
const temporalReady = 'Temporal' in globalThis ? undefined : import('temporal-polyfill/global');

/** A page's module, with its texts in the page's language. */
function moduleOf(name: string): () => Promise<PageModule> {
  const load = pageModules[`../${name}`];
  if (!load) throw new Error(`The page table names ${name}, which does not exist`);
  return async () => {
    await temporalReady;
    return (await Promise.all([load(), loadPageTexts(name)]))[0];
  };
}

function pageRoute(page: Page): RouteObject {
  const load = moduleOf(page.module);
  const guard = guards[page.access];
  return {
    ...(page.path === '/' ? { index: true } : { path: page.path }),
    // The guard runs while the page's chunk downloads; the page's own loader after both.
    async loader(args) {
      await guard?.(args);
      const { loader } = await load();
      return loader ? loader(args) : null;
    },
    async action(args) {
      const { action } = await load();
      if (!action) throw new Response('This page takes no form', { status: 405 });
      return action(args);
    },
    async lazy() {
      const { Component, shouldRevalidate } = await load();
      return shouldRevalidate ? { Component, shouldRevalidate } : { Component };
    },
  };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    loader: () => authStore.ready(),
    HydrateFallback: () => null,
    children: [
      {
        ErrorBoundary: RouteError,
        children: [
          ...pages.map(pageRoute),
          { path: '*', lazy: async () => ({ Component: (await moduleOf(notFoundModule)()).Component }) },
        ],
      },
    ],
  },
];

/** The app's router. Creating it starts loading the current page: its guard and its chunk. */
export const createAppRouter = () => createBrowserRouter(routes);
