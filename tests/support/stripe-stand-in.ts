/**
 * A stand-in for Stripe's API on a loopback port, so that tests drive the real `stripe` package
 * (through STRIPE_API_URL) without reaching Stripe. It answers what Tutorlane asks of Stripe,
 * creating a Checkout session, and plays Stripe's side of a payment: completeSession() sends the
 * signed `checkout.session.completed` webhook that Stripe would send once the card is charged.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A form-encoded body read back into the nested objects and arrays the package encoded. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormParams = { [key: string]: FormValue };

/** A Checkout session as Stripe answers it (the fields Tutorlane reads, and a few more). */
export interface StandInSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete';
  created: number;
  livemode: false;
}

export interface StandInDelivery {
  /** The HTTP status the webhook endpoint answered. */
  status: number;
  event: Stripe.Event;
  /** The exact body sent, and its Stripe-Signature header: send both again to replay the delivery. */
  payload: string;
  header: string;
}

export interface StripeStandIn {
  /** The base URL to give STRIPE_API_URL. */
  url: string;
  /** Every session created, by id, with the parameters the package sent for it. */
  sessions: Map<string, { session: StandInSession; params: FormParams }>;
  /**
   * The signed webhook for a paid session, built but not sent: for a test that calls the app
   * in-process rather than over a socket. `tamper` signs with a wrong secret, as a forger would.
   */
  paidEvent(
    sessionId: string,
    options: { secret: string; tamper?: boolean },
  ): Omit<StandInDelivery, 'status'>;
  /** Marks the session paid and POSTs its signed `checkout.session.completed` webhook to webhookUrl. */
  completeSession(
    sessionId: string,
    options: { webhookUrl: string; secret: string; tamper?: boolean },
  ): Promise<StandInDelivery>;
  close(): Promise<void>;
}

const randomId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export async function startStripeStandIn(options: { secretKey: string }): Promise<StripeStandIn> {
  const sessions = new Map<string, { session: StandInSession; params: FormParams }>();
  // Stripe answers a repeated Idempotency-Key with the first answer; the package relies on it
  // when it retries a POST.
  const byIdempotencyKey = new Map<string, StandInSession>();
  let url = '';

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      sendError(res, 500, 'api_error', error instanceof Error ? error.message : String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', url).pathname;
    if (path.startsWith('/v1/') && req.headers.authorization !== `Bearer ${options.secretKey}`) {
      sendError(res, 401, 'invalid_request_error', 'Invalid API Key provided');
      return;
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const params = parseForm(await readBody(req));
      const key = req.headers['idempotency-key'];
      const earlier = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
      if (earlier) {
        sendJson(res, 200, earlier);
        return;
      }
      const created = createSession(params);
      if (typeof created === 'string') {
        sendError(res, 400, 'invalid_request_error', created);
        return;
      }
      sessions.set(created.id, { session: created, params });
      if (typeof key === 'string') byIdempotencyKey.set(key, created);
      sendJson(res, 200, created);
      return;
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && sessionPath?.[1]) {
      const found = sessions.get(decodeURIComponent(sessionPath[1]));
      if (found) sendJson(res, 200, found.session);
      else sendError(res, 404, 'invalid_request_error', `No such checkout.session: '${sessionPath[1]}'`);
      return;
    }
    sendError(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${path})`);
  }

  /** A session from the create parameters, or the message Stripe would refuse them with. */
  function createSession(params: FormParams): StandInSession | string {
    const lineItems = params.line_items;
    if (!Array.isArray(lineItems) || lineItems.length === 0) return 'Missing required param: line_items.';
    let total = 0;
    let currency = '';
    for (const item of lineItems) {
      if (typeof item !== 'object' || Array.isArray(item)) return 'Invalid line_items.';
      const price = item.price_data;
      if (typeof price !== 'object' || Array.isArray(price)) return 'Missing line_items[].price_data.';
      const unitAmount = Number(price.unit_amount);
      const quantity = Number(item.quantity ?? '1');
      if (!Number.isInteger(unitAmount) || unitAmount < 0) return 'Invalid integer: unit_amount.';
      if (typeof price.currency !== 'string' || !/^[a-z]{3}$/.test(price.currency)) {
        return 'Invalid currency: expected a lower-case ISO code.';
      }
      currency = price.currency;
      total += unitAmount * quantity;
    }
    if (typeof params.success_url !== 'string') return 'Missing required param: success_url.';
    const id = randomId('cs');
    return {
      id,
      object: 'checkout.session',
      url: `${url}/c/pay/${id}`,
      mode: typeof params.mode === 'string' ? params.mode : 'payment',
      amount_subtotal: total,
      amount_total: total,
      currency,
      customer_email: typeof params.customer_email === 'string' ? params.customer_email : null,
      client_reference_id: typeof params.client_reference_id === 'string' ? params.client_reference_id : null,
      metadata: stringRecord(params.metadata),
      success_url: params.success_url,
      cancel_url: typeof params.cancel_url === 'string' ? params.cancel_url : '',
      payment_status: 'unpaid',
      status: 'open',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
  }

  function paidEvent(sessionId: string, { secret, tamper = false }: { secret: string; tamper?: boolean }) {
    const found = sessions.get(sessionId);
    if (!found) throw new Error(`The stand-in has no session ${sessionId}`);
    const paid: StandInSession = { ...found.session, payment_status: 'paid', status: 'complete' };
    const event = {
      id: randomId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'checkout.session.completed',
      data: { object: paid },
    } as unknown as Stripe.Event;
    const payload = JSON.stringify(event, null, 2);
    // Signed as Stripe signs: an HMAC of "timestamp.body" with the endpoint's secret.
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: tamper ? `${secret}_not_the_endpoint_secret` : secret,
    });
    return { event, payload, header, paid };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    sessions,
    paidEvent(sessionId, signing) {
      const { event, payload, header } = paidEvent(sessionId, signing);
      return { event, payload, header };
    },
    async completeSession(sessionId, { webhookUrl, secret, tamper = false }) {
      const { event, payload, header, paid } = paidEvent(sessionId, { secret, tamper });
      // A forged delivery does not come from the card being charged.
      const found = sessions.get(sessionId);
      if (found && !tamper) found.session = paid;
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: payload,
      });
      await response.arrayBuffer();
      return { status: response.status, event, payload, header };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `line_items[0][price_data][currency]=eur` back into `{ line_items: [{ price_data: { currency } }] }`:
 * the bracketed keys with indexed arrays that the package writes.
 */
export function parseForm(body: string): FormParams {
  const root: FormParams = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: { [key: string]: FormValue } = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
        return;
      }
      const next = node[part];
      if (typeof next === 'object' && !Array.isArray(next)) {
        node = next;
      } else {
        const created: { [key: string]: FormValue } = {};
        node[part] = created;
        node = created;
      }
    });
  }
  return withArrays(root) as FormParams;
}

/** Objects whose keys are 0, 1, 2... become arrays, as the package's indexed keys meant them. */
function withArrays(value: FormValue): FormValue {
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => [key, withArrays(value[key] as FormValue)] as const);
  if (keys.length > 0 && keys.every((key, index) => key === String(index))) {
    return entries.map(([, item]) => item);
  }
  return Object.fromEntries(entries);
}

function stringRecord(value: FormValue | undefined): Record<string, string> {
  if (typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': randomId('req'),
  });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, type: string, message: string) {
  sendJson(res, status, { error: { type, message } });
}
