/**
 * Card top-ups through Stripe Checkout: opening a hosted payment page for a top-up, checking that a
 * webhook really comes from Stripe, and reading what a paid session tells us. Everything Stripe
 * sees goes through the official `stripe` package; nothing here touches the ledger.
 */
import Stripe from 'stripe';
import type { CardPayments } from './wallet-routes';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another host for Stripe's API (a local stand-in in tests); unset means api.stripe.com. */
  apiUrl?: string | undefined;
}

export interface CheckoutInput {
  topUpId: string;
  amountCents: number;
  /** ISO 4217, either case. */
  currency: string;
  customerEmail: string;
}

export interface StripeGateway {
  /** Opens a Checkout session for the top-up; the student is sent to `url` to pay. */
  createCheckout(input: CheckoutInput): Promise<{ sessionId: string; url: string }>;
  /**
   * The event in a webhook delivery, once its Stripe-Signature header proves Stripe sent this very
   * body. Throws StripeSignatureError when the header is missing, malformed, stale or wrong.
   */
  verifyEvent(rawBody: string, signature: string | undefined): Stripe.Event;
}

/**
 * What verifyEvent throws for a delivery that cannot be trusted (the package's own class, so that a
 * caller can answer 400 with `instanceof` without importing the package itself).
 */
export const StripeSignatureError = Stripe.errors.StripeSignatureVerificationError;
export type StripeSignatureError = InstanceType<typeof StripeSignatureError>;

/** The facts of a paid Checkout session, as the ledger needs them to credit a top-up. */
export interface CompletedTopUp {
  sessionId: string;
  topUpId: string;
  amountCents: number;
  /** Upper case, as the rest of Tutorlane writes currencies (Stripe writes them in lower case). */
  currency: string;
}

/**
 * A student waits on this call before being sent to the payment page, so a slow or unreachable
 * Stripe must fail within seconds rather than after the package's default of 80. One retry covers
 * a dropped connection; the package keys every POST, so a retried create never opens two sessions.
 */
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_NETWORK_RETRIES = 1;

export function createStripeGateway(settings: StripeSettings, appUrl: string): StripeGateway {
  const stripe = new Stripe(settings.secretKey, {
    timeout: REQUEST_TIMEOUT_MS,
    maxNetworkRetries: MAX_NETWORK_RETRIES,
    appInfo: { name: 'Tutorlane' },
    ...(settings.apiUrl ? apiHostOptions(settings.apiUrl) : {}),
  });
  const base = appUrl.replace(/\/+$/, '');

  return {
    async createCheckout({ topUpId, amountCents, currency, customerEmail }) {
      const back = `${base}/wallet?topUp=${encodeURIComponent(topUpId)}`;
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: currency.toLowerCase(),
                unit_amount: amountCents,
                product_data: { name: 'Wallet top-up' },
              },
            },
          ],
          customer_email: customerEmail,
          // Both carry the top-up's id back in the webhook: the reference is shown in Stripe's
          // dashboard, the metadata is what the webhook reads.
          client_reference_id: topUpId,
          metadata: { topUpId },
          success_url: `${back}&paid=1`,
          cancel_url: `${back}&cancelled=1`,
        },
        // Asking twice for the same top-up (a retry after a timeout of ours) returns the session
        // already opened instead of a second one the student could pay too.
        { idempotencyKey: `checkout-session-${topUpId}` },
      );
      if (!session.url) {
        // Only sessions embedded in a page have no URL; a hosted one always has it.
        throw new Error(`Stripe returned Checkout session ${session.id} without a URL`);
      }
      return { sessionId: session.id, url: session.url };
    },

    verifyEvent(rawBody, signature) {
      // The package checks the HMAC over the exact bytes received and refuses a timestamp older than
      // five minutes, so a captured delivery cannot be replayed later. A missing header is refused
      // by the same check, with the same error.
      return stripe.webhooks.constructEvent(rawBody, signature ?? '', settings.webhookSecret);
    },
  };
}

/**
 * STRIPE_API_URL as the package's host, port and protocol options. The package always adds its
 * own /v1/ path, so a path in the URL is ignored.
 */
function apiHostOptions(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol.slice(0, -1);
  if (protocol !== 'http' && protocol !== 'https') {
    throw new Error(`STRIPE_API_URL must be an http or https URL, not ${apiUrl}`);
  }
  return {
    // An IPv6 literal comes bracketed from URL, and Node's http.request wants it bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
    protocol,
  };
}

/**
 * The top-up a webhook event pays for, or null when the event pays for nothing: another type, a
 * session not yet paid (a bank debit completes the session before the money arrives) or a
 * session that does not name a top-up (one opened by something else on the same Stripe account).
 * A session paid later by such a slow method arrives as checkout.session.async_payment_succeeded,
 * with the same facts, and counts as paid too.
 */
export function completedTopUp(event: Stripe.Event): CompletedTopUp | null {
  if (
    event.type !== 'checkout.session.completed' &&
    event.type !== 'checkout.session.async_payment_succeeded'
  ) {
    return null;
  }
  const session = event.data.object;
  if (session.payment_status !== 'paid') return null;
  const topUpId = session.metadata?.topUpId ?? session.client_reference_id;
  if (!topUpId || session.amount_total === null || !session.currency) return null;
  return {
    sessionId: session.id,
    topUpId,
    amountCents: session.amount_total,
    currency: session.currency.toUpperCase(),
  };
}

/**
 * Card payments as the wallet's routes use them: a Checkout session per top-up, and the facts of
 * a paid session from a delivery whose signature checks (anything else is null; a bad signature
 * throws).
 */
export function stripeCardPayments(settings: StripeSettings, appUrl: string): CardPayments {
  const gateway = createStripeGateway(settings, appUrl);
  return {
    createCheckout: (input) => gateway.createCheckout(input),
    paidSession: (rawBody, signature) => completedTopUp(gateway.verifyEvent(rawBody, signature)),
  };
}
