/** The finance totals as the money reliability tests check them. */

/** The seven finance totals summed: zero whenever the ledger is whole. */
export function totalsSum(totals: {
  studentBalances: { amountCents: number };
  held: { amountCents: number };
  packages?: { amountCents: number };
  tutorPayable: { amountCents: number };
  schoolRevenue: { amountCents: number };
  clearing: { manual: { amountCents: number }; stripe: { amountCents: number } };
}): number {
  return (
    totals.studentBalances.amountCents +
    totals.held.amountCents +
    (totals.packages?.amountCents ?? 0) +
    totals.tutorPayable.amountCents +
    totals.schoolRevenue.amountCents +
    totals.clearing.manual.amountCents +
    totals.clearing.stripe.amountCents
  );
}
