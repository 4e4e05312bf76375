/**
 * The price of a lesson in the currency's minor unit: the hourly rate (whole units) times its
 * length, rounded to the nearest minor unit. `minorPerUnit` is 100 for USD, 1 for JPY.
 *
 * A module of its own, apart from the availability rules it was once written with: a tutor's page
 * shows every visitor a price, and the browser loads a whole module with the page that uses any
 * of it. The slot rules are the availability editor's, not a visitor's.
 */
export const lessonPriceCents = (hourlyRate: number, minutes: number, minorPerUnit: number) =>
  Math.round((hourlyRate * minorPerUnit * minutes) / 60);
