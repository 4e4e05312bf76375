/** The browser's router is the page table: every page it names exists, renders, and is guarded. */
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/client/app/router';
import { pages } from '../../src/shared/routes';

const pageRoutes = routes[0]?.children?.[0]?.children ?? [];

describe('the router', () => {
  it('has one route per page of the table, and one for every other path', () => {
    const paths = pageRoutes.map((route) => (route.index ? '/' : route.path));
    expect(paths).toEqual([...pages.map((page) => page.path), '*']);
  });

  it("loads each page's module, which renders a component", async () => {
    for (const route of pageRoutes) {
      const lazy = route.lazy;
      if (typeof lazy !== 'function') throw new Error(`${route.path} has no module`);
      const module = await lazy();
      expect(typeof module.Component, route.path ?? '/').toBe('function');
    }
    // The first import of a page compiles it and all it imports, every page of the app: the time
    // goes to the compiler, not to this test, and grows when other suites share the cores.
  }, 30_000);
});
