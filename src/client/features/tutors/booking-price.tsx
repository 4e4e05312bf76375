/** The booking box's money: the price weighed against the student's balance, and what is missing. */
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
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-800">
        Price {formatAmount(priceCents, balance.currency, { minor: 'always' })} · Your balance{' '}
        {formatAmount(balance.amountCents, balance.currency, { minor: 'always' })}
      </p>
      {short ? (
        <Lacking missing={short} refused={lacking !== null} />
      ) : (
        <p className="text-sm text-slate-600">
          Paid from your balance when you book, and held until the lesson.
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
  return (
    <div
      role={refused ? 'alert' : 'status'}
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      {missing.amountCents > 0
        ? `Your balance is ${formatAmount(missing.amountCents, missing.currency, { minor: 'always' })} short for this lesson.`
        : 'Your balance is too small for this lesson.'}{' '}
      <Link to={topUpPath(missing)} className="font-semibold underline">
        Top up
      </Link>
    </div>
  );
}
