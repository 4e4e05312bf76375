/** The booking box's money: the price weighed against the student's balance, and what is missing. */
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { type Amount, topUpUnitsFor } from '../../../shared/money/amounts';
import { paths } from '../../../shared/routes';

/** The amount a refused booking lacks, from the server's answer, if it says. */
export function neededAmount(body: unknown): Amount | null {
  const needed = (body as { needed?: Partial<Amount> } | null | undefined)?.needed;
  return typeof needed?.amountCents === 'number' && typeof needed.currency === 'string'
    ? { amountCents: needed.amountCents, currency: needed.currency }
    : null;
}

/** Where to top up what is missing: the wallet, with the amount rounded up to whole units. */
const topUpPath = (missing: Amount) => `${paths.wallet}?amount=${topUpUnitsFor(missing)}`;

/** "Price $35.00 · Your balance $50.00", and what is missing when the balance is short. */
export function PriceAgainstBalance({
  priceCents,
  balance,
  lacking,
}: {
  priceCents: number;
  balance: Amount;
  lacking: Amount | null;
}) {
  const short =
    lacking ??
    (balance.amountCents < priceCents
      ? { amountCents: priceCents - balance.amountCents, currency: balance.currency }
      : null);
  const price = formatAmount(priceCents, balance.currency, { minor: 'always' });
  const left = formatAmount(balance.amountCents, balance.currency, { minor: 'always' });
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-800">
        <Trans>
          Price {price} · Your balance {left}
        </Trans>
      </p>
      {short ? (
        <Lacking missing={short} refused={lacking !== null} />
      ) : (
        <p className="text-sm text-slate-600">
          <Trans>Paid from your balance when you book, and held until the lesson.</Trans>
        </p>
      )}
    </div>
  );
}

/**
 * The balance is short: by how much, and the way to top it up. Said at once when the server
 * refused the booking; politely when the page saw it coming.
 */
export function Lacking({ missing, refused = false }: { missing: Amount; refused?: boolean }) {
  const short = formatAmount(missing.amountCents, missing.currency, { minor: 'always' });
  return (
    <div
      role={refused ? 'alert' : 'status'}
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      {missing.amountCents > 0 ? (
        <Trans>Your balance is {short} short for this lesson.</Trans>
      ) : (
        <Trans>Your balance is too small for this lesson.</Trans>
      )}{' '}
      <Link to={topUpPath(missing)} className="font-semibold underline">
        <Trans>Top up</Trans>
      </Link>
    </div>
  );
}
