/** What most of this school's tutors charge, in the page's language: "€25 per hour", "€20-€35 per hour". */
import { t } from '@lingui/core/macro';
import { formatUnits } from '../../shared/amounts';

export function rateLabel(rate: { low: number; high: number }, currency: string): string {
  const low = formatUnits(rate.low, currency);
  if (rate.low === rate.high) return t`${low} per hour`;
  const high = formatUnits(rate.high, currency);
  return t`${low}-${high} per hour`;
}
