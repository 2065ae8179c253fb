import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A small imitation of the Stripe REST API, for the calls the shop's Stripe provider makes:
// customers (create, delete), payment intents (create, retrieve, list, cancel) and refunds. The real `stripe`
// SDK talks to it (STRIPE_API_URL), so tests see the SDK's real requests and errors.

export const STAND_IN_SECRET_KEY = 'sk_test_standin_0123456789';

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. /v1/payment_intents. */
  path: string;
  query: Record<string, string>;
  /** The form-encoded body, flat: { amount: '1999', 'metadata[orderKey]': 'abc' }. */
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  /** The answer came from the idempotency cache, not a fresh execution. */
  replayed: boolean;
  status: number;
}

export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  client_secret: string;
  status: string;
  metadata: Record<string, string>;
  last_payment_error: { type: string; code: string; message: string } | null;
  allowed_payment_method_types: string[];
  payment_method_types: string[];
  canceled_at: number | null;
  cancellation_reason: string | null;
  created: number;
  livemode: false;
}

export interface StripeStandIn {
  /** e.g. http://127.0.0.1:41234, for STRIPE_API_URL. */
  url: string;
  /** The one secret key it accepts; anything else gets a 401. */
  secretKey: string;
  requests: RecordedRequest[];
  intents: Map<string, StandInIntent>;
  /** The customers Stripe holds, with the name and email each was given. */
  customers: Map<string, Record<string, unknown>>;
  /** What Stripe.js and the bank would do: move an intent on (optionally with a failure message). */
  setStatus(id: string, status: string, lastPaymentErrorMessage?: string): void;
  /**
   * The next API request whose path starts with `path` gets Stripe's error answer instead:
   * a card or invalid-request error, or Stripe's own 500.
   */
  failNext(failure: { status: number; type: string; message: string; code?: string }, path?: string): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];

export async function startStripeStandIn(options: { secretKey?: string } = {}): Promise<StripeStandIn> {
  const secretKey = options.secretKey ?? STAND_IN_SECRET_KEY;
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const intents = new Map<string, StandInIntent>();
  const refunds = new Map<string, Record<string, unknown>>();
  /** Idempotency-Key -> the request it was first used with and the answer given. */
  const idempotent = new Map<string, { fingerprint: string; answer: Answer }>();

  const now = () => Math.floor(Date.now() / 1000);
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

  function intentOr404(intentId: string, param = 'intent'): StandInIntent {
    const intent = intents.get(intentId);
    if (!intent) {
      throw new ApiError(404, 'invalid_request_error', `No such payment_intent: '${intentId}'`, 'resource_missing', param);
    }
    return intent;
  }

  function route(method: string, path: string, query: Record<string, string>, form: Record<string, string>): Answer {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: form.email ?? null,
        name: form.name ?? null,
        metadata: nested(form, 'metadata'),
        created: now(),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }

    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && customerPath) {
      const customerId = decodeURIComponent(customerPath[1]!);
      if (!customers.delete(customerId))
        throw new ApiError(404, 'invalid_request_error', `No such customer: '${customerId}'`, 'resource_missing', 'id');
      return { status: 200, body: { id: customerId, object: 'customer', deleted: true } };
    }

    if (method === 'POST' && path === '/v1/payment_intents') {
      refuseUnknown(form, ['amount', 'currency', 'customer', 'metadata', 'allowed_payment_method_types']);
      const amount = requiredInteger(form, 'amount');
      const currency = form.currency;
      if (!currency) throw new ApiError(400, 'invalid_request_error', 'Missing required param: currency.', 'parameter_missing', 'currency');
      if (currency === 'usd' && amount < 50) {
        throw new ApiError(400, 'invalid_request_error', 'Amount must be at least $0.50 usd', 'amount_too_small', 'amount');
      }
      const customer = form.customer ?? null;
      if (customer && !customers.has(customer)) {
        throw new ApiError(400, 'invalid_request_error', `No such customer: '${customer}'`, 'resource_missing', 'customer');
      }
      const allowed = list(form, 'allowed_payment_method_types');
      const intentId = id('pi');
      const intent: StandInIntent = {
        id: intentId,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency,
        customer,
        client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
        status: 'requires_payment_method',
        metadata: nested(form, 'metadata'),
        last_payment_error: null,
        allowed_payment_method_types: allowed,
        payment_method_types: allowed.length ? allowed : ['card'],
        canceled_at: null,
        cancellation_reason: null,
        created: now(),
        livemode: false,
      };
      intents.set(intentId, intent);
      return { status: 200, body: intent };
    }

    if (method === 'GET' && path === '/v1/payment_intents') {
      const limit = Math.min(Number(query.limit ?? 10) || 10, 100);
      const all = [...intents.values()].reverse();
      return {
        status: 200,
        body: { object: 'list', url: '/v1/payment_intents', has_more: all.length > limit, data: all.slice(0, limit) },
      };
    }

    const one = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && one) return { status: 200, body: intentOr404(decodeURIComponent(one[1]!)) };

    const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (method === 'POST' && cancel) {
      const intent = intentOr404(decodeURIComponent(cancel[1]!));
      if (!CANCELABLE.includes(intent.status)) {
        throw new ApiError(
          400,
          'invalid_request_error',
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
          'payment_intent_unexpected_state',
        );
      }
      intent.status = 'canceled';
      intent.canceled_at = now();
      intent.cancellation_reason = form.cancellation_reason ?? null;
      return { status: 200, body: intent };
    }

    if (method === 'POST' && path === '/v1/refunds') {
      const intentId = form.payment_intent;
      if (!intentId)
        throw new ApiError(
          400,
          'invalid_request_error',
          'One of the following params should be provided for this request: payment_intent or charge.',
          'parameter_missing',
        );
      const intent = intentOr404(intentId, 'payment_intent');
      if (intent.status !== 'succeeded') {
        throw new ApiError(
          400,
          'invalid_request_error',
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          'charge_not_refundable',
        );
      }
      const refunded = [...refunds.values()].filter((r) => r.payment_intent === intent.id).reduce((sum, r) => sum + Number(r.amount), 0);
      const left = intent.amount - refunded;
      if (left <= 0) {
        throw new ApiError(400, 'invalid_request_error', `Charge for ${intent.id} has already been refunded.`, 'charge_already_refunded');
      }
      const amount = form.amount === undefined ? left : requiredInteger(form, 'amount');
      if (amount > left) {
        throw new ApiError(
          400,
          'invalid_request_error',
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          'amount_too_large',
        );
      }
      const refund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: intent.currency,
        payment_intent: intent.id,
        status: 'succeeded',
        created: now(),
      };
      refunds.set(refund.id, refund);
      return { status: 200, body: refund };
    }

    throw new ApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  let nextFailure: { failure: Parameters<StripeStandIn['failNext']>[0]; path: string } | undefined;

  const server = http.createServer((req, res) => {
    const failure = nextFailure && (req.url ?? '').startsWith(nextFailure.path) ? nextFailure.failure : undefined;
    if (failure) nextFailure = undefined;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const method = req.method ?? 'GET';
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const query = Object.fromEntries(url.searchParams);
      const idempotencyKey = header(req, 'idempotency-key');
      const authorization = header(req, 'authorization');
      const record: RecordedRequest = {
        method,
        path: url.pathname,
        query,
        form,
        idempotencyKey,
        authorization,
        replayed: false,
        status: 0,
      };
      requests.push(record);

      let answer: Answer;
      const replayHeaders: Record<string, string> = {};
      if (failure) {
        answer = errorAnswer(new ApiError(failure.status, failure.type, failure.message, failure.code));
      } else if (authorization !== `Bearer ${secretKey}`) {
        const shown = authorization?.replace(/^Bearer /, '') ?? '';
        answer = errorAnswer(
          new ApiError(
            401,
            'invalid_request_error',
            shown ? `Invalid API Key provided: ${redact(shown)}` : 'You did not provide an API key.',
          ),
        );
      } else if (idempotencyKey && method === 'POST') {
        const fingerprint = `${method} ${url.pathname} ${new URLSearchParams(form).toString()}`;
        const earlier = idempotent.get(idempotencyKey);
        if (earlier && earlier.fingerprint !== fingerprint) {
          answer = errorAnswer(
            new ApiError(
              400,
              'idempotency_error',
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            ),
          );
        } else if (earlier) {
          answer = earlier.answer;
          record.replayed = true;
          replayHeaders['Idempotent-Replayed'] = 'true';
        } else {
          answer = execute(method, url.pathname, query, form);
          // Snapshot: a later status change must not alter what a replay returns.
          answer = { status: answer.status, body: JSON.parse(JSON.stringify(answer.body)) };
          idempotent.set(idempotencyKey, { fingerprint, answer });
        }
      } else {
        answer = execute(method, url.pathname, query, form);
      }

      record.status = answer.status;
      res.writeHead(answer.status, {
        'Content-Type': 'application/json',
        'Request-Id': `req_${randomBytes(8).toString('hex')}`,
        ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        ...replayHeaders,
      });
      res.end(JSON.stringify(answer.body));
    });
  });

  function execute(method: string, path: string, query: Record<string, string>, form: Record<string, string>): Answer {
    try {
      return route(method, path, query, form);
    } catch (err) {
      if (err instanceof ApiError) return errorAnswer(err);
      return { status: 500, body: { error: { type: 'api_error', message: String(err) } } };
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    intents,
    customers,
    setStatus(intentId, status, lastPaymentErrorMessage) {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`stand-in has no payment intent ${intentId}`);
      intent.status = status;
      if (status === 'succeeded') intent.amount_received = intent.amount;
      intent.last_payment_error = lastPaymentErrorMessage
        ? { type: 'card_error', code: 'card_declined', message: lastPaymentErrorMessage }
        : null;
    },
    failNext(failure, path = '/v1/') {
      nextFailure = { failure, path };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function errorAnswer(err: ApiError): Answer {
  return {
    status: err.status,
    body: {
      error: {
        type: err.type,
        message: err.message,
        ...(err.code ? { code: err.code } : {}),
        ...(err.param ? { param: err.param } : {}),
      },
    },
  };
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** metadata[orderKey]=abc -> { orderKey: 'abc' } */
function nested(form: Record<string, string>, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  const prefix = `${name}[`;
  for (const [key, value] of Object.entries(form)) {
    if (key.startsWith(prefix) && key.endsWith(']')) out[key.slice(prefix.length, -1)] = value;
  }
  return out;
}

/** payment_method_types[0]=card -> ['card'] */
function list(form: Record<string, string>, name: string): string[] {
  return Object.entries(nested(form, name))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, value]) => value);
}

function requiredInteger(form: Record<string, string>, name: string): number {
  const raw = form[name];
  if (raw === undefined) throw new ApiError(400, 'invalid_request_error', `Missing required param: ${name}.`, 'parameter_missing', name);
  if (!/^\d+$/.test(raw)) throw new ApiError(400, 'invalid_request_error', `Invalid integer: ${raw}`, 'parameter_invalid_integer', name);
  return Number(raw);
}

/** Like Stripe: a parameter the API version does not know is an error, not silently ignored. */
function refuseUnknown(form: Record<string, string>, known: string[]): void {
  for (const key of Object.keys(form)) {
    const base = key.replace(/\[.*$/, '');
    if (!known.includes(base)) {
      throw new ApiError(400, 'invalid_request_error', `Received unknown parameter: ${base}`, 'parameter_unknown', base);
    }
  }
}

function redact(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '****';
}
