/**
 * Lets a test run code before each synchronous file operation of the code under test, to play
 * what another process could do between two of them. A test file installs it with
 *   vi.mock('node:fs', async (original) =>
  (await import('../support/pausable-fs')).pausableFs(await original()),
);
 * and sets `beforeFileOperation.current`. It must not import node:fs itself (it is what is mocked).
 */
export const beforeFileOperation: { current: (() => void) | undefined } = { current: undefined };

export function pausableFs<T extends object>(fs: T): T {
  const wrapped: Record<string, unknown> = { ...(fs as Record<string, unknown>) };
  for (const [name, value] of Object.entries(fs) as [string, unknown][]) {
    if (!name.endsWith('Sync') || typeof value !== 'function') continue;
    wrapped[name] = (...args: unknown[]) => {
      beforeFileOperation.current?.();
      return value(...args);
    };
  }
  return { ...wrapped, default: wrapped } as T;
}
