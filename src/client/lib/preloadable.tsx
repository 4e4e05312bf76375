/**
 * Code fetched apart from its page, which the page's loader may fetch first when it knows the page
 * shows it. React's `lazy` suspends on its first render even when the code is already here, and
 * React reveals a suspended part a moment later (it batches reveals, some 300 ms): a part above
 * others then appears after the page and pushes down what a person was about to tap. A part made
 * here renders at once when its code is here, and suspends only when it is not.
 */
import { type ComponentType, lazy } from 'react';

export function preloadable<Module>(load: () => Promise<Module>) {
  let loaded: Module | undefined;
  // The browser fetches a module once; a failed fetch is tried again by the next call.
  const fetchCode = () => load().then((module) => (loaded = module));
  /** A component of the code, to render inside a Suspense boundary for when it is not here yet. */
  function part<Props extends object>(pick: (module: Module) => ComponentType<Props>) {
    const Later = lazy(async () => ({ default: pick(await fetchCode()) }));
    return (props: Props) => {
      const Ready = loaded ? pick(loaded) : Later;
      return <Ready {...props} />;
    };
  }
  return { load: fetchCode, part };
}
