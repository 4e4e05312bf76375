/**
 * How every text field, select and text area looks, in a module of its own so a page that styles
 * a plain input (the search box, a date) does not load the whole form kit for it.
 */
// No focus style of its own: the global :focus-visible outline (styles.css, 3 px brand-600, over 6:1 on
// white) marks the focused field, as it does every button and link.
export const fieldClass =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 aria-invalid:border-red-600';
