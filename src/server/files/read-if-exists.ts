import { readFileSync } from 'node:fs';

/** A small file's text, or undefined when it does not exist (any other failure is thrown). */
export function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
