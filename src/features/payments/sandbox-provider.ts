import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isMySql, type Db } from '../../db.ts';
import { formatUsd } from '../../lib/money.ts';
import {
  PaymentError,
  WebhookVerificationError,
  type CreateIntent,
  type PaymentIntent,
  type PaymentProvider,
  type PaymentStatus,
} from './provider.ts';

// The built-in payment provider for running the shop without Stripe keys. It behaves like
// Stripe's test mode for the cards below, and keeps its records in the sandbox_* tables so
// every app process behind a load balancer sees the same intents.

/** Listed on /admin so staff know which numbers to type. */
export const SANDBOX_TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'Succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'Declined' },
  { number: '4000 0025 0000 3155', outcome: 'Requires 3D Secure authentication' },
] as const;

/** Stripe's minimum charge in USD, refused in Stripe's words. */
const MINIMUM_CHARGE_CENTS = 50;
const DECLINED_CARD = '4000000000000002';
const THREE_D_SECURE_CARD = '4000002500003155';

export const SANDBOX_MESSAGES = {
  notFound: 'This payment could not be found.',
  incorrectNumber: 'Your card number is incorrect.',
  incorrectExpiry: "Your card's expiration date is incorrect.",
  expired: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  declined: 'Your card was declined.',
  authenticationFailed: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

export interface ConfirmCard {
  id: string;
  clientSecret: string;
  /** Digits, spaces allowed ("4242 4242 4242 4242"). */
  cardNumber: string;
  /** MM/YY */
  expiry: string;
  cvc: string;
}

export interface CompleteAuthentication {
  id: string;
  clientSecret: string;
  /** The sandbox's 3D Secure page: did the customer pass the check? */
  succeed: boolean;
}

export type SandboxProvider = PaymentProvider & {
  readonly name: 'sandbox';
  /** What Stripe.js does in the browser with the real provider: try the card on the intent. */
  confirmCard(input: ConfirmCard): Promise<PaymentIntent>;
  /** Finishes (or fails) the 3D Secure step of a requires_action intent. */
  completeAuthentication(input: CompleteAuthentication): Promise<PaymentIntent>;
};

interface IntentRow {
  id: string;
  clientSecret: string;
  amountCents: number;
  status: string;
  customerId: string | null;
  lastError: string | null;
  metadata: string;
  idempotencyKey: string | null;
}

const INTENTS = 'sandbox_payment_intents';
const CUSTOMERS = 'sandbox_customers';
interface CustomerRow {
  id: string;
  email: string;
  name: string;
}
interface RefundRow {
  id: string;
  paymentIntentId: string;
  amountCents: number | string;
}
const REFUNDS = 'sandbox_refunds';

export function createSandboxProvider(db: Db): SandboxProvider {
  async function findIntent(id: string): Promise<IntentRow | undefined> {
    return (await db(INTENTS).where({ id }).first()) as IntentRow | undefined;
  }

  async function intentOrThrow(id: string): Promise<IntentRow> {
    const row = await findIntent(id);
    if (!row) throw new PaymentError(`No such payment_intent: '${id}'`, 404);
    return row;
  }

  /** The intent the browser names, provided it also holds the intent's client secret. */
  async function intentForClient(id: string, clientSecret: string): Promise<IntentRow> {
    const row = typeof id === 'string' && id ? await findIntent(id) : undefined;
    if (!row || !sameSecret(row.clientSecret, clientSecret)) throw new PaymentError(SANDBOX_MESSAGES.notFound, 404);
    return row;
  }

  /**
   * Moves an intent on only if it is still in the status this caller read: of two racing
   * confirmations exactly one changes anything. The loser gets whatever the winner left.
   */
  async function transition(row: IntentRow, from: PaymentStatus, to: PaymentStatus, lastError: string | null): Promise<PaymentIntent> {
    await db(INTENTS).where({ id: row.id, status: from }).update({ status: to, lastError });
    return toPaymentIntent(await intentOrThrow(row.id));
  }

  return {
    name: 'sandbox',
    isLive: false,
    publishableKey: null,

    async createCustomer({ email, name, idempotencyKey }) {
      const existing = (await db(CUSTOMERS).where({ idempotencyKey }).first()) as CustomerRow | undefined;
      if (existing) return sameCustomer(existing, email, name, idempotencyKey);
      const id = newId('cus_sbx_');
      try {
        await db(CUSTOMERS).insert({ id, email, name, idempotencyKey, createdAt: new Date() });
        return { id };
      } catch (err) {
        // A concurrent retry with the same key won the insert: answer with its customer.
        const winner = (await db(CUSTOMERS).where({ idempotencyKey }).first()) as CustomerRow | undefined;
        if (winner) return sameCustomer(winner, email, name, idempotencyKey);
        throw err;
      }
    },

    async forgetCustomer(id) {
      await db(CUSTOMERS).where({ id }).delete();
    },

    async createPaymentIntent(input) {
      checkAmount(input.amountCents);
      const existing = (await db(INTENTS).where({ idempotencyKey: input.idempotencyKey }).first()) as IntentRow | undefined;
      if (existing) return sameIntent(existing, input);
      const id = newId('pi_sbx_');
      const row: IntentRow = {
        id,
        clientSecret: `${id}_secret_${randomBytes(16).toString('hex')}`,
        amountCents: input.amountCents,
        status: 'requires_payment_method',
        customerId: input.customerId,
        lastError: null,
        metadata: JSON.stringify(input.metadata),
        idempotencyKey: input.idempotencyKey,
      };
      try {
        await db(INTENTS).insert({ ...row, createdAt: new Date() });
        return toPaymentIntent(row);
      } catch (err) {
        const winner = (await db(INTENTS).where({ idempotencyKey: input.idempotencyKey }).first()) as IntentRow | undefined;
        if (winner) return sameIntent(winner, input);
        throw err;
      }
    },

    async retrievePaymentIntent(id) {
      return toPaymentIntent(await intentOrThrow(id));
    },

    async cancelPaymentIntent(id, _idempotencyKey) {
      // Cancelling is idempotent by nature here: a canceled intent stays canceled.
      await db(INTENTS).where({ id }).whereNotIn('status', ['succeeded', 'canceled']).update({ status: 'canceled' });
      const row = await intentOrThrow(id);
      if (row.status === 'succeeded') {
        throw new PaymentError('You cannot cancel this PaymentIntent because it has a status of succeeded.', 409);
      }
    },

    async refund({ paymentIntentId, idempotencyKey, amountCents }) {
      return db.transaction(async (trx) => {
        // Lock the intent (MariaDB; SQLite serialises transactions anyway) so two refunds
        // with different keys cannot both pass the "enough left" check.
        const query = trx(INTENTS).where({ id: paymentIntentId });
        if (isMySql(db)) query.forUpdate();
        const intent = (await query.first()) as IntentRow | undefined;
        const existing = (await trx(REFUNDS).where({ idempotencyKey }).first()) as RefundRow | undefined;
        if (existing) {
          const sameAmount = amountCents === undefined || Number(existing.amountCents) === amountCents;
          if (existing.paymentIntentId !== paymentIntentId || !sameAmount) throw idempotencyMismatch(idempotencyKey);
          return { id: existing.id };
        }
        if (!intent) throw new PaymentError(`No such payment_intent: '${paymentIntentId}'`, 404);
        if (intent.status !== 'succeeded') {
          throw new PaymentError('This PaymentIntent does not have a successful charge to refund.', 409);
        }
        const earlier = (await trx(REFUNDS).where({ paymentIntentId }).sum({ total: 'amountCents' }).first()) as {
          total: number | string | null;
        };
        const left = Number(intent.amountCents) - Number(earlier.total ?? 0);
        if (left <= 0) throw new PaymentError(`Charge for ${paymentIntentId} has already been refunded.`, 400);
        const amount = amountCents ?? left;
        if (!Number.isInteger(amount) || amount <= 0) throw new PaymentError('Refund amount must be a positive number of cents.', 400);
        // Stripe's wording for a refund larger than what remains on the charge.
        if (amount > left) {
          throw new PaymentError(
            `Refund amount (${formatUsd(amount)}) is greater than unrefunded amount on charge (${formatUsd(left)})`,
            400,
          );
        }
        const id = newId('re_sbx_');
        await trx(REFUNDS).insert({ id, paymentIntentId, amountCents: amount, idempotencyKey, createdAt: new Date() });
        return { id };
      });
    },

    parseWebhook() {
      throw new WebhookVerificationError('The sandbox payment provider sends no webhooks');
    },

    async check() {
      try {
        await db(INTENTS).first('id');
        return { ok: true };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    },

    async confirmCard({ id, clientSecret, cardNumber, expiry, cvc }) {
      const row = await intentForClient(id, clientSecret);
      // Paid already (a double click), or waiting for the bank's step (a reload during it):
      // answered as it is, so the card form shows the outcome or the step again.
      if (row.status === 'succeeded' || row.status === 'requires_action') return toPaymentIntent(row);
      if (row.status !== 'requires_payment_method') throw notConfirmable(row.status);

      const failure = cardProblem(cardNumber, expiry, cvc, new Date());
      if (failure) return transition(row, 'requires_payment_method', 'requires_payment_method', failure);

      const digits = cardNumber.replace(/ /g, '');
      if (digits === DECLINED_CARD) {
        return transition(row, 'requires_payment_method', 'requires_payment_method', SANDBOX_MESSAGES.declined);
      }
      if (digits === THREE_D_SECURE_CARD) return transition(row, 'requires_payment_method', 'requires_action', null);
      return transition(row, 'requires_payment_method', 'succeeded', null);
    },

    async completeAuthentication({ id, clientSecret, succeed }) {
      const row = await intentForClient(id, clientSecret);
      // Anything but a pending authentication (already finished, a double click) reads as is.
      if (row.status !== 'requires_action') return toPaymentIntent(row);
      return succeed
        ? transition(row, 'requires_action', 'succeeded', null)
        : transition(row, 'requires_action', 'requires_payment_method', SANDBOX_MESSAGES.authenticationFailed);
    },
  };
}

/** The message Stripe would show for a mistyped card, or null when the details are well formed. */
export function cardProblem(cardNumber: string, expiry: string, cvc: string, now: Date): string | null {
  const digits = typeof cardNumber === 'string' ? cardNumber.replace(/ /g, '') : '';
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) return SANDBOX_MESSAGES.incorrectNumber;

  const match = typeof expiry === 'string' ? /^\s*(\d{2})\s*\/\s*(\d{2})\s*$/.exec(expiry) : null;
  if (!match) return SANDBOX_MESSAGES.incorrectExpiry;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return SANDBOX_MESSAGES.incorrectExpiry;
  // A card is good through the last day of its expiry month.
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (month - 1) < thisMonth) return SANDBOX_MESSAGES.expired;

  if (typeof cvc !== 'string' || !/^\d{3,4}$/.test(cvc.trim())) return SANDBOX_MESSAGES.incorrectCvc;
  return null;
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function notConfirmable(status: string): PaymentError {
  if (status === 'canceled') return new PaymentError('This payment was canceled. Please start checkout again.', 409);
  return new PaymentError('This payment cannot be confirmed right now.', 409);
}

function checkAmount(amountCents: number): void {
  if (!Number.isInteger(amountCents) || amountCents < 0 || amountCents > 99_999_999) {
    throw new Error(`Invalid payment amount: ${amountCents} cents`);
  }
  if (amountCents < MINIMUM_CHARGE_CENTS) throw new PaymentError(`Amount must be at least ${formatUsd(MINIMUM_CHARGE_CENTS)} usd`, 400);
}

function sameCustomer(row: CustomerRow, email: string, name: string, key: string) {
  if (row.email !== email || row.name !== name) throw idempotencyMismatch(key);
  return { id: row.id };
}

function sameIntent(row: IntentRow, input: CreateIntent): PaymentIntent {
  const intent = toPaymentIntent(row);
  const same =
    intent.amountCents === input.amountCents &&
    intent.customerId === input.customerId &&
    JSON.stringify(sortKeys(intent.metadata)) === JSON.stringify(sortKeys(input.metadata));
  if (!same) throw idempotencyMismatch(input.idempotencyKey);
  return intent;
}

function sortKeys(record: Record<string, string>): [string, string][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Like Stripe: a key reused for a different request is a programming error, not the customer's. */
function idempotencyMismatch(key: string): Error {
  return new Error(`Keys for idempotent requests can only be used with the same parameters they were first used with (key ${key})`);
}

function toPaymentIntent(row: IntentRow): PaymentIntent {
  return {
    id: row.id,
    status: row.status as PaymentStatus,
    amountCents: Number(row.amountCents),
    currency: 'usd',
    customerId: row.customerId ?? null,
    clientSecret: row.clientSecret,
    lastError: row.lastError ?? null,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
  };
}

function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

function sameSecret(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
