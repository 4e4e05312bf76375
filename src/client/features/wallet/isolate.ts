/**
 * An amount or a reference inside a sentence that is a plain string (a dialog's description, a
 * form's answer), where no <bdi> can go: on a right-to-left page it is wrapped in Unicode's
 * first-strong isolate marks, so "$144.00" or "TL-7F3K" keeps its own order within Arabic words.
 * On a left-to-right page the text is left as it is.
 */
export const isolate = (text: string) =>
  typeof document !== 'undefined' && document.documentElement.dir === 'rtl' ? `\u2068${text}\u2069` : text;
