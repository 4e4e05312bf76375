/**
 * Amounts are integers in the currency's minor unit, and how many of those make a whole unit is the
 * currency's own (100 for USD, 1 for JPY, 1000 for KWD). Code that multiplies or divides an amount
 * by 100 assumes cents, and a yen school then reads ¥30 for a ¥3,000 lesson; only src/shared/amounts.ts
 * converts, through minorPerUnit. This test reads every source file and fails on `* 100`, `/ 100`
 * or `% 100` written next to a name that holds money.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE = join(import.meta.dirname, '../../src');
/** The one module that turns whole units into minor ones, and amounts into text. */
const CONVERTER = 'shared/amounts.ts';

/** A name that holds money: priceCents, amount_cents, hourlyRate, balance, lateFee, dollars... */
const MONEY_WORDS =
  /amount|cents?\b|cents?[A-Z_]|price|rate|balance|fee|dollar|money|cost|payable|payout|refund|wallet|top_?up/i;
/** A percentage is not money, though "percent" ends in "cent". */
const NOT_MONEY = /percent/i;

const NAME = String.raw`[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*`;
const HUNDRED_AFTER = new RegExp(String.raw`(${NAME})\s*[*/%]\s*100(?![\d_.])`, 'g');
const HUNDRED_BEFORE = new RegExp(String.raw`(?<![\w.])100\s*\*\s*(${NAME})`, 'g');

const holdsMoney = (name: string) => {
  const last = name.split('.').at(-1) ?? name;
  return MONEY_WORDS.test(last) && !NOT_MONEY.test(last);
};

/** The lines of a source text that scale money by 100, as "line: text". */
function hundredsNextToMoney(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, '');
    if (/^\s*(\*|\/\*)/.test(code)) return;
    const names = [...code.matchAll(HUNDRED_AFTER), ...code.matchAll(HUNDRED_BEFORE)].map(
      (match) => match[1] ?? '',
    );
    if (names.some(holdsMoney)) found.push(`${index + 1}: ${line.trim()}`);
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('money is never scaled by 100 by hand', () => {
  it('fires on an amount multiplied, divided or split by 100, and not on a percentage', () => {
    const sample = [
      'const cents = dollars * 100;',
      'const shown = (priceCents / 100).toFixed(2);',
      'return cents % 100 === 0;',
      'const fee = 100 * rate;',
      'const total = topUp.amountCents / 100;',
      'const whole = Number(x) * 100; // no money name beside it',
      'const part = Math.floor((priceCents * percent + 50) / 100);',
      'const share = Math.round(goalShare(milestones) * 100);',
      'const discounted = lateFeePercent / 100;',
      ' * a comment may say cents / 100',
    ].join('\n');
    expect(hundredsNextToMoney(sample)).toEqual([
      '1: const cents = dollars * 100;',
      '2: const shown = (priceCents / 100).toFixed(2);',
      '3: return cents % 100 === 0;',
      '4: const fee = 100 * rate;',
      '5: const total = topUp.amountCents / 100;',
    ]);
  });

  it('finds no such line in src/, outside the module that converts amounts', () => {
    const offending = sourceFiles(SOURCE)
      .filter((path) => relative(SOURCE, path) !== CONVERTER)
      .flatMap((path) =>
        hundredsNextToMoney(readFileSync(path, 'utf8')).map((line) => `${relative(SOURCE, path)}:${line}`),
      );
    expect(offending).toEqual([]);
  });
});
