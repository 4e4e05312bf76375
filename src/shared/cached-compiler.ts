/**
 * Lingui compiles a text that is not already compiled each time it is said (an English page's
 * texts, the server's catalogues, read as written): this keeps each text's compiled form, so it
 * is compiled once. Given the compiler, so that a page loads it only where it is needed.
 */
export function cachedCompiler<Compiled>(compile: (message: string) => Compiled) {
  const compiled = new Map<string, Compiled>();
  return (message: string): Compiled => {
    let found = compiled.get(message);
    if (found === undefined) {
      found = compile(message);
      compiled.set(message, found);
    }
    return found;
  };
}
