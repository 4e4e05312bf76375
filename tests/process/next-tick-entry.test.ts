/**
 * The nextTick entry held for the life of the process (src/server/http/next-tick-entry.js, issue
 * #6). What it must guarantee: after full garbage collections, a new `process.nextTick` entry
 * still gets the hidden class V8's feedback for Node's queue-entry literal names, so that literal
 * stays on its fast path. Hidden classes are only visible through V8's natives syntax, so the check
 * runs in a child process started with it.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/server-process';

const moduleUrl = pathToFileURL(`${projectRoot}/src/server/http/next-tick-entry.js`).href;

const probe = `
import { executionAsyncResource } from 'node:async_hooks';
const { heldNextTickEntry } = await import(${JSON.stringify(moduleUrl)});
const nextEntry = () => new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource())));
for (let i = 0; i < 3; i++) await nextEntry();
// An idle moment with no entry queued, then full collections: what start-up and a build do.
await new Promise((resolve) => setTimeout(resolve, 10));
globalThis.gc();
globalThis.gc();
const held = heldNextTickEntry();
const fresh = await nextEntry();
process.stdout.write(JSON.stringify({
  heldCallback: typeof held?.callback,
  freshCallback: typeof fresh.callback,
  sameHiddenClass: held !== undefined && %HaveSameMap(held, fresh),
}));
`;

describe('the held nextTick entry', () => {
  it('is a nextTick queue entry whose hidden class new entries still get after full collections', () => {
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--input-type=module', '--eval', probe],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      heldCallback: 'function',
      freshCallback: 'function',
      sameHiddenClass: true,
    });
  });
});
