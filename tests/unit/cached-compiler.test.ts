/** A text is compiled once however often it is said (Lingui would compile it each time). */
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { expect, it } from 'vitest';
import { cachedCompiler } from '../../src/shared/cached-compiler';

it('compiles each text once, and gives back what the compiler made', () => {
  let calls = 0;
  const compile = cachedCompiler((message: string) => {
    calls++;
    return compileMessage(message);
  });
  const plural = '{count, plural, one {# lesson} other {# lessons}}';
  const first = compile(plural);
  expect(compile(plural)).toBe(first);
  expect(first).toEqual(compileMessage(plural));
  compile('Hello {name}');
  expect(calls).toBe(2);
});
