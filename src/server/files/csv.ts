/**
 * The CSV files Tutorlane writes (the finance downloads), one line at a time, made safe to open in
 * a spreadsheet. Every field of a data line that is not a number of ours is quoted, so a comma,
 * quote or line break inside it stays inside it. Quoting is not enough on its own: a spreadsheet set
 * to a comma-decimal locale splits on `;` (some on a tab too) and ignores the quotes while doing so,
 * and any part that then starts with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a
 * formula (OWASP, "CSV Injection"). So each such start, at the beginning of a field or after a `,`,
 * `;`, tab or line break inside it, gets a leading `'`, which spreadsheets show as text.
 */

/** A decimal number this code wrote itself (an amount in whole units): a number to the spreadsheet. */
export interface CsvDecimal {
  decimal: string;
}

export type CsvField = string | number | CsvDecimal;

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Where a part of the text begins, for a spreadsheet that splits on any separator it knows, and
 * that part (after any spaces, which some imports trim) starts as a formula would.
 */
const FORMULA_START = /(?<=^|[,;\t\r\n])(?=[ ]*[=+\-@\t\r])/g;

/** Text as a spreadsheet may only ever read it as text: defused, then quoted. */
function textField(text: string): string {
  const defused = text.replace(FORMULA_START, "'");
  return `"${defused.replaceAll('"', '""')}"`;
}

/** One field of a data line: our numbers as they are, everything else as defused, quoted text. */
export function csvField(value: CsvField): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : textField(String(value));
  if (typeof value === 'object')
    return PLAIN_NUMBER.test(value.decimal) ? value.decimal : textField(value.decimal);
  return textField(value);
}

/** A data line, ended with CRLF as RFC 4180 has it. */
export const csvLine = (fields: readonly CsvField[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** The header line: the file's own column names (plain words of ours), unquoted. */
export const csvHeader = (names: readonly string[]): string => `${names.join(',')}\r\n`;
