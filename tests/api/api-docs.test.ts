/**
 * docs/api.md and the app agree: every route the Hono app answers is documented, and every route
 * the document names (`METHOD /path` in backticks) is one the app answers. Built from the app's
 * own route table, so a route added without its documentation fails here.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * `GET /api/tutors/:id{[0-9a-f-]+}` and `GET /api/tutors/:tutorId` are one route; so are the app's
 * `/api/calendar/:token` and the document's `/api/calendar/:token.ics`, a parameter taking its
 * whole path segment.
 */
const normalise = (method: string, path: string) =>
  `${method} ${path.replace(/\{[^}]*\}/g, '').replace(/:[A-Za-z][^/]*/g, ':param')}`;

function appRoutes() {
  const routes = t.app.routes
    // Middleware is registered for ALL methods; the /api/* entries are the pipeline and the 404.
    .filter((route) => METHODS.includes(route.method) && route.path !== '/api/*')
    .map((route) => normalise(route.method, route.path));
  return [...new Set(routes)].sort();
}

function documentedRoutes() {
  const text = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const found = [...text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s?]*)/g)].map(([, method, path]) =>
    normalise(method ?? '', path ?? ''),
  );
  return [...new Set(found)].sort();
}

/** A route of the app's ending in `/*` (Better Auth's handler) answers every path below it. */
const answers = (route: string, documented: string) =>
  route === documented ||
  (route.endsWith('/*') && documented.startsWith(route.slice(0, -1)) && documented.length > route.length - 1);

it('documents every route the app answers', () => {
  const documented = documentedRoutes();
  const undocumented = appRoutes().filter((route) => !documented.some((doc) => answers(route, doc)));
  expect(undocumented, 'routes missing from docs/api.md').toEqual([]);
});

it('documents no route the app does not answer', () => {
  const routes = appRoutes();
  const missing = documentedRoutes().filter((doc) => !routes.some((route) => answers(route, doc)));
  expect(missing, 'routes in docs/api.md that the app does not have').toEqual([]);
});
