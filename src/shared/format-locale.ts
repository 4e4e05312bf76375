/**
 * The locale numbers, money and dates are formatted in when a caller names none. A page sets it
 * once, at start-up, to its language (a change of language loads the page again); the server never
 * sets it, and names the recipient's locale wherever a mail formats anything, since one server
 * answers people of every language at once.
 */
let current = 'en';

export const formatLocale = (): string => current;

export function setFormatLocale(locale: string) {
  current = locale;
}
