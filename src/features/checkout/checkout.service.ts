import { randomUUID } from 'node:crypto';
import type { Db } from '../../db.ts';
import { Checkout, UNSETTLED_STATUSES, type CheckoutLine } from '../../models/Checkout.ts';
import { Order } from '../../models/Order.ts';
import { User } from '../../models/User.ts';
import { BadRequest, Conflict, NotFound, TooManyRequests, Unauthorized } from '../../web/errors.ts';
import { toOrderDto, type OrderDto } from '../orders/order.dto.ts';
import type { PaymentEvent, PaymentProvider } from '../payments/provider.ts';
import type { Totals } from '../pricing/pricing.ts';
import type { ShippingInfo } from '../accounts/shipping-info.ts';
import { MAX_COPIES_PER_TITLE } from '../catalog/per-title-limit.ts';
import { quoteCart } from './quote.ts';
import { firstGoneLine, HOLD_MINUTES, releaseExpiredHolds, releaseHoldsOf, SoldOut, takeHolds } from './stock-holds.ts';
import { lockForSale, prepareAddressLock, saleTransaction } from './lock-order.ts';
import { isLockConflict } from '../../lib/lock-retry.ts';
import type { Knex } from 'knex';
import type { Logger } from '../../log.ts';
import { createOrderCompletion, type CompletionDeps } from './order-completion.ts';
import { applicableCode, releaseUse, reserveUse, type AppliedCode } from '../discounts/discount-uses.ts';
import { DISCOUNT_MESSAGES } from '../discounts/discount.rules.ts';

/** Books in all that one order may take (per title, the cart's MAX_COPIES_PER_TITLE). */
export const MAX_COPIES_PER_ORDER = 100;
/** Open checkouts one network address may hold stock with (a family, a school, an office). */
export const MAX_OPEN_CHECKOUTS_PER_ADDRESS = 5;
/** The sweep leaves a checkout alone this long: the browser and the webhook come first. */
const SWEEP_GRACE_MS = 2 * 60_000;
const SWEEP_BATCH = 100;

export const CHECKOUT_MESSAGES = {
  totalChanged: 'The order total has changed. Please review your order and try again.',
  notPaid: 'This payment has not gone through yet.',
  amountMismatch: 'This payment does not match the order. Please contact support.',
  soldOut: (title: string) => `Sorry, "${title}" has just sold out. Please update your cart and try again.`,
  preordersGone: (title: string) => `Sorry, every pre-order copy of "${title}" has just been taken. Please update your cart and try again.`,
  tooManyOfTitle: (title: string) =>
    `You can order up to ${MAX_COPIES_PER_TITLE} copies of "${title}" at a time. Please lower the quantity in your cart.`,
  tooManyCopies: `You can order up to ${MAX_COPIES_PER_ORDER} books at a time. Please lower the quantities in your cart.`,
  tooManyCheckouts: `Too many checkouts are open from your network. Please finish one, or wait ${HOLD_MINUTES} minutes, and try again.`,
  busy: 'Many parents are paying right now. Please wait a moment and try again.',
  refunded: (title: string) =>
    `We're sorry: "${title}" sold out before your payment completed. Your payment has been refunded in full; it may take 5-10 business days to appear.`,
  preorderRefunded: (title: string) =>
    `We're sorry: every pre-order copy of "${title}" was taken before your payment completed. Your payment has been refunded in full; it may take 5-10 business days to appear.`,
};

export interface PaymentStart {
  clientSecret: string;
  paymentIntentId: string;
  /** What will be charged, in cents. */
  amount: number;
}

/** The checkout needs what completing an order needs, and the shop's day, which decides what a line holds. */
export type CheckoutDeps = CompletionDeps & {
  /** The shop's calendar day (services.ts): a title takes pre-orders until it reaches the publication date. */
  shopDay: () => string;
};

export function createCheckoutService(deps: CheckoutDeps) {
  const { db, carts, payments, log, shopDay } = deps;
  const completion = createOrderCompletion(deps);

  async function paymentCustomer(userId: number): Promise<string> {
    const user = await User.query(db).findById(userId);
    if (!user) throw new NotFound('Account not found');
    if (user.paymentCustomerId) return user.paymentCustomerId;
    const customer = await payments.createCustomer({
      email: user.email,
      name: `${user.firstName} ${user.lastName}`.trim(),
      // Unique to this account, even across databases that share one Stripe account.
      idempotencyKey: `customer-${user.id}-${user.createdAt.getTime()}`,
    });
    await User.query(db).findById(user.id).patch({ paymentCustomerId: customer.id });
    return customer.id;
  }

  function lookup(discountCode: string | undefined) {
    return discountCode ? (subtotal: number) => applicableCode(db, discountCode, subtotal) : undefined;
  }

  /** At payment the code was accepted once already: a refusal now means it changed since, a conflict. */
  function lookupAtPayment(discountCode: string | undefined) {
    const find = lookup(discountCode);
    return find && ((subtotal: number) => find(subtotal).catch(asConflict));
  }

  async function existingOrder(paymentIntentId: string): Promise<Order | undefined> {
    return Order.query(db).findOne({ stripePaymentIntentId: paymentIntentId }).withGraphFetched('items.book');
  }

  /**
   * Ends a checkout whose payment will not happen: its intent canceled at the provider, its
   * copies back in stock. A payment that succeeded after all is turned into its order instead.
   */
  async function abandon(checkout: Checkout): Promise<void> {
    try {
      await payments.cancelPaymentIntent(checkout.paymentIntentId, `cancel-${checkout.paymentIntentId}`);
    } catch (err) {
      const intent = await payments.retrievePaymentIntent(checkout.paymentIntentId);
      if (intent.status === 'succeeded') {
        await completion.settle(checkout);
        return;
      }
      if (intent.status !== 'canceled') throw err;
    }
    await closeCheckout(checkout, 'canceled');
  }

  /** Under the checkout's lock, so a completion in flight is never undone. */
  async function closeCheckout(checkout: Checkout, status: 'failed' | 'canceled'): Promise<void> {
    await saleTransaction(db, async (trx) => {
      await lockForSale(trx, { userId: checkout.userId ?? undefined });
      const locked = (await Checkout.query(trx).findById(checkout.id).forUpdate())!;
      await lockForSale(trx, { codes: [locked.discountCode], bookIds: bookIdsOf(locked) });
      await endCheckout(trx, locked, status);
    });
  }

  return {
    /** The payment provider's customer for this account, created on first use. */
    customerFor: paymentCustomer,

    async calculateTotals(
      owner: { userId?: number | undefined; cartId?: number | undefined },
      shipping: ShippingInfo,
      discountCode?: string,
    ): Promise<Totals> {
      return (await quoteCart(carts, owner, shipping, lookup(discountCode))).totals;
    },

    /**
     * Creates the payment intent for the signed-in customer's cart, with the amount the server
     * computes, and holds the copies. A total the browser claims must match it.
     */
    async startPayment({
      userId,
      shipping,
      giftNote = null,
      giftRecipient = null,
      claimedTotalCents,
      clientKey,
      discountCode,
    }: {
      userId: number;
      shipping: ShippingInfo;
      /** Trimmed, at most GIFT_NOTE_MAX characters (the schema's work); null for none. */
      giftNote?: string | null;
      giftRecipient?: string | null;
      claimedTotalCents?: number | undefined;
      clientKey: string;
      /** The code applied in this session; checked again here, and a use reserved with the copies. */
      discountCode?: string | undefined;
    }): Promise<PaymentStart> {
      await releaseExpiredHolds(db, new Date());
      const quote = await quoteCart(carts, { userId }, shipping, lookupAtPayment(discountCode));
      if (claimedTotalCents !== undefined && claimedTotalCents !== quote.totals.total) throw new Conflict(CHECKOUT_MESSAGES.totalChanged);
      checkOrderSize(quote.lines);
      // One checkout at a time per customer: the earlier one's copies go back before new ones are held.
      for (const earlier of await Checkout.query(db).where({ userId }).whereIn('status', ['open', 'failed'])) await abandon(earlier);
      // Asked again under the locks below; this only spares the provider a doomed intent when the
      // copies are plainly gone: the crowd paying for the last copies of a print run is told at
      // once. A start of this customer's own still in flight may hold them, so then it waits for the locks.
      const gone = (await Checkout.query(db).findOne({ userId, status: 'open' }))
        ? undefined
        : await firstGoneLine(db, quote.lines, shopDay());
      if (gone) throw startRefusal(new SoldOut(gone.title, Boolean(gone.preorder)));
      // Asked again under the locks below; this only spares the provider a doomed intent.
      if ((await openCheckoutsFrom(db, clientKey, userId)) >= MAX_OPEN_CHECKOUTS_PER_ADDRESS)
        throw new TooManyRequests(CHECKOUT_MESSAGES.tooManyCheckouts);
      await prepareAddressLock(db, clientKey);
      const customerId = await paymentCustomer(userId);
      const intent = await payments.createPaymentIntent({
        amountCents: quote.totals.total,
        customerId,
        metadata: { userId: String(userId) },
        idempotencyKey: `intent-${randomUUID()}`,
      });
      let replaced: string[];
      try {
        const checkout = {
          paymentIntentId: intent.id,
          userId,
          lines: JSON.stringify(quote.lines),
          subtotal: quote.totals.subtotal,
          discountCode: quote.code?.code ?? null,
          discount: quote.totals.discount,
          discountHeld: quote.code !== undefined,
          shipping: quote.totals.shipping,
          handling: quote.totals.handling,
          tax: quote.totals.tax,
          total: quote.totals.total,
          shippingAddress: shipping.address,
          city: shipping.city,
          state: quote.state,
          zipCode: shipping.zipCode,
          giftNote,
          giftRecipient,
          status: 'open' as const,
          clientKey,
          createdAt: new Date(),
        };
        replaced = await saleTransaction(db, (trx) =>
          holdForPayment(trx, { checkout, lines: quote.lines, code: quote.code, today: shopDay() }),
        );
      } catch (err) {
        await cancelQuietly(payments, log, intent.id);
        throw startRefusal(err);
      }
      // Parallel starts of the same customer: the newest stands, the others' intents end here.
      for (const id of replaced) await cancelQuietly(payments, log, id);
      return { clientSecret: intent.clientSecret, paymentIntentId: intent.id, amount: intent.amountCents };
    },

    /**
     * Turns a succeeded payment into an order, once: the browser's call and the webhook may
     * both arrive, at the same moment even, and make one order. The intent is asked of the
     * provider, never taken from the request.
     */
    async completeOrder({ paymentIntentId, userId }: { paymentIntentId: string; userId?: number | undefined }): Promise<OrderDto> {
      const checkout = await Checkout.query(db).findOne({ paymentIntentId });
      if (!checkout || (userId !== undefined && checkout.userId !== userId)) throw new NotFound('Order not found');
      const done = await existingOrder(paymentIntentId);
      if (done) return toOrderDto(done);

      const intent = await payments.retrievePaymentIntent(paymentIntentId);
      if (intent.status !== 'succeeded') throw new Conflict(CHECKOUT_MESSAGES.notPaid);
      if (!paidInFull(intent, checkout)) throw new Conflict(CHECKOUT_MESSAGES.amountMismatch);
      const settled = await completion.settle(checkout);
      if (settled.kind === 'refunded')
        throw new Conflict((settled.preorder ? CHECKOUT_MESSAGES.preorderRefunded : CHECKOUT_MESSAGES.refunded)(settled.title));
      return toOrderDto(settled.order);
    },

    /** A verified provider event (Stripe's webhook, or the sandbox after it confirms a card). */
    async handlePaymentEvent(event: PaymentEvent): Promise<void> {
      if (event.type === 'payment_intent.succeeded') {
        await this.completeOrder({ paymentIntentId: event.paymentIntentId }).catch((err: unknown) => {
          if (err instanceof NotFound) return log.warn({ paymentIntentId: event.paymentIntentId }, 'payment for an unknown checkout');
          if (err instanceof Conflict)
            return log.warn({ paymentIntentId: event.paymentIntentId, err: err.message }, 'payment could not become an order');
          throw err;
        });
      } else if (event.type === 'payment_intent.payment_failed') {
        const checkout = await Checkout.query(db).findOne({ paymentIntentId: event.paymentIntentId });
        if (checkout) await closeCheckout(checkout, 'failed');
      }
    },

    /**
     * Settles what no door settled: a payment that succeeded without its order (the parent's
     * browser and the webhook both lost), a refund that did not go through, a checkout
     * abandoned past its hold. Safe to run in several processes at once: each step takes the
     * checkout's lock or is idempotent at the provider.
     */
    async sweep(now = new Date()): Promise<{ settled: number }> {
      await releaseExpiredHolds(db, now);
      const due = await Checkout.query(db)
        .whereIn('status', UNSETTLED_STATUSES)
        .where('createdAt', '<=', new Date(now.getTime() - SWEEP_GRACE_MS))
        .orderBy('id')
        .limit(SWEEP_BATCH);
      let settled = 0;
      for (const checkout of due) {
        try {
          if (await settleLeftover(checkout, now)) settled++;
        } catch (err) {
          log.warn({ err, paymentIntentId: checkout.paymentIntentId }, 'checkout sweep: could not settle; will retry');
        }
      }
      return { settled };
    },
  };

  /**
   * A payment becomes an order only for the checkout's own total, through every door: one for
   * another amount is left for the operator (logged at error on each sweep) and never filled.
   */
  function paidInFull(intent: { id: string; amountCents: number }, checkout: Checkout): boolean {
    if (intent.amountCents === checkout.total) return true;
    log.error(
      { paymentIntentId: intent.id, paid: intent.amountCents, expected: checkout.total },
      'payment amount does not match its checkout',
    );
    return false;
  }

  async function settleLeftover(checkout: Checkout, now: Date): Promise<boolean> {
    const intent = await payments.retrievePaymentIntent(checkout.paymentIntentId);
    if (intent.status === 'succeeded') {
      if (!paidInFull(intent, checkout)) return false;
      await completion.settle(checkout);
      return true;
    }
    if (intent.status === 'canceled') {
      await closeCheckout(checkout, 'canceled');
      return true;
    }
    const holdEnds = checkout.createdAt.getTime() + HOLD_MINUTES * 60_000;
    if (holdEnds > now.getTime()) return false;
    await abandon(checkout);
    return true;
  }
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

/** The last use of a code was reserved by another checkout a moment ago. */
class CodeUsedUp extends Error {}

/** The copies one order may hold: enough for a class, not the whole print run. */
function checkOrderSize(lines: CheckoutLine[]): void {
  const tooMany = lines.find((line) => line.quantity > MAX_COPIES_PER_TITLE);
  if (tooMany) throw new Conflict(CHECKOUT_MESSAGES.tooManyOfTitle(tooMany.title));
  if (lines.reduce((sum, line) => sum + line.quantity, 0) > MAX_COPIES_PER_ORDER) throw new Conflict(CHECKOUT_MESSAGES.tooManyCopies);
}

/** Open checkouts started from one address by other customers (a customer's own are replaced, not added). */
async function openCheckoutsFrom(db: Db | Knex.Transaction, clientKey: string, exceptUserId: number): Promise<number> {
  const row = (await Checkout.query(db)
    .where({ clientKey, status: 'open' })
    .whereNot({ userId: exceptUserId })
    .count({ n: '*' })
    .first()) as unknown as { n: number | string };
  return Number(row.n);
}

type NewCheckout = Partial<Checkout> & Pick<Checkout, 'paymentIntentId' | 'clientKey' | 'lines'> & { userId: number };

/**
 * Writes the checkout and holds its copies and its code's use, in the lock order. The customer's
 * and the address's rows are locked before anything is counted, so starts sent at once are
 * counted one after another, as if the parent had sent them one by one. Returns the payment
 * intents of the customer's earlier checkouts it replaced.
 */
async function holdForPayment(
  trx: Knex.Transaction,
  { checkout, lines, code, today }: { checkout: NewCheckout; lines: CheckoutLine[]; code: AppliedCode | undefined; today: string },
): Promise<string[]> {
  const { userId, clientKey } = checkout;
  await lockForSale(trx, { userId, addressKey: clientKey ?? undefined });
  // Erased while this start waited for the account's lock: nobody is signed in to pay any more.
  if (!(await trx('users').where({ id: userId }).first('id'))) throw new Unauthorized();
  if (clientKey && (await openCheckoutsFrom(trx, clientKey, userId)) >= MAX_OPEN_CHECKOUTS_PER_ADDRESS)
    throw new TooManyRequests(CHECKOUT_MESSAGES.tooManyCheckouts);
  const earlierIds = (await Checkout.query(trx).where({ userId }).whereIn('status', ['open', 'failed']).select('id')).map((c) => c.id);
  const earlier = earlierIds.length ? await Checkout.query(trx).whereIn('id', earlierIds).orderBy('id').forUpdate() : [];
  await Checkout.query(trx).insert(checkout);
  await lockForSale(trx, {
    codes: [code?.code, ...earlier.map((c) => c.discountCode)],
    bookIds: [...lines.map((l) => l.bookId), ...earlier.flatMap(bookIdsOf)],
  });
  const replaced: string[] = [];
  for (const old of earlier) if (await endCheckout(trx, old, 'canceled')) replaced.push(old.paymentIntentId);
  if (code && !(await reserveUse(trx, code.id))) throw new CodeUsedUp();
  await takeHolds(trx, checkout.paymentIntentId, lines, today);
  return replaced;
}

/** Ends an open or failed checkout: its copies and its code's use go back. Call holding its locks. */
async function endCheckout(trx: Knex.Transaction, checkout: Checkout, status: 'failed' | 'canceled'): Promise<boolean> {
  const moved = await Checkout.query(trx).findById(checkout.id).whereIn('status', ['open', 'failed']).patch({ status });
  if (moved !== 1) return false;
  await releaseHoldsOf(trx, checkout.paymentIntentId);
  await releaseUse(trx, checkout);
  return true;
}

function bookIdsOf(checkout: Checkout): number[] {
  return checkout.parsedLines().map((line) => line.bookId);
}

/** A payment that will not be made: its intent is canceled if the provider lets us; a failure only logged. */
async function cancelQuietly(payments: PaymentProvider, log: Logger, paymentIntentId: string): Promise<void> {
  await payments
    .cancelPaymentIntent(paymentIntentId, `cancel-${paymentIntentId}`)
    .catch((err: unknown) => log.warn({ err, paymentIntentId }, 'could not cancel payment intent'));
}

function asConflict(err: unknown): never {
  throw err instanceof BadRequest ? new Conflict(err.message) : err;
}

/** What a parent is told when their payment could not start: always a reason, never a fault. */
function startRefusal(err: unknown): unknown {
  if (err instanceof SoldOut) return new Conflict((err.preorder ? CHECKOUT_MESSAGES.preordersGone : CHECKOUT_MESSAGES.soldOut)(err.title));
  if (err instanceof CodeUsedUp) return new Conflict(DISCOUNT_MESSAGES.usedUp);
  if (isLockConflict(err)) return new TooManyRequests(CHECKOUT_MESSAGES.busy);
  return err;
}
