/**
 * How shared code says a text in the reader's language: the pages pass `translated` (src/client/lib/
 * i18n.ts), the server `(text, values) => translate(language, text, values)`. Each text is an English
 * ICU message marked `/*i18n*\/` where it is written; `english` says it in English (the default, and
 * what tests read).
 */
export type Say = (text: string, values?: Record<string, string | number>) => string;

/** A message's plural forms: `{count, plural, one {# lesson} other {# lessons}}`. */
const PLURAL = /\{(\w+), plural, one \{([^{}]*)\} other \{([^{}]*)\}\}/g;

/** English: placeholders filled, English plurals (one, other) chosen. */
export const english: Say = (text, values = {}) =>
  text
    .replace(PLURAL, (all, name: string, one: string, other: string) => {
      const value = values[name];
      if (value === undefined) return all;
      return (Number(value) === 1 ? one : other).replaceAll('#', String(value));
    })
    .replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));
