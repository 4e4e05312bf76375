import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadable } from '../../src/client/lib/preloadable';

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;
const inSuspense = (node: React.ReactNode) =>
  renderToString(<Suspense fallback={<p>not here yet</p>}>{node}</Suspense>);

describe('preloadable', () => {
  it('renders at once, with its props, once the page has fetched its code', async () => {
    const code = preloadable(async () => ({ Greeting }));
    const Part = code.part((module) => module.Greeting);
    await code.load();
    expect(inSuspense(<Part name="Ada" />)).toContain('Hello <!-- -->Ada');
  });

  it('suspends while its code is not here: the boundary shows its fallback', () => {
    const code = preloadable(() => new Promise<{ Greeting: typeof Greeting }>(() => {}));
    const Part = code.part((module) => module.Greeting);
    expect(inSuspense(<Part name="Ada" />)).toContain('not here yet');
  });

  it('fetches its code again after a fetch that failed', async () => {
    let fetches = 0;
    const code = preloadable(async () => {
      fetches += 1;
      if (fetches === 1) throw new Error('offline');
      return { Greeting };
    });
    const Part = code.part((module) => module.Greeting);
    await expect(code.load()).rejects.toThrow('offline');
    await code.load();
    expect(inSuspense(<Part name="Ada" />)).toContain('Hello <!-- -->Ada');
  });
});
