import { randomUUID } from 'node:crypto';
import type { Db } from '../../db.ts';
import type { Logger } from '../../log.ts';
import { toDate } from '../../lib/dates.ts';
import { toCents, toDecimal } from '../../lib/money.ts';
import { Checkout } from '../../models/Checkout.ts';
import { Order } from '../../models/Order.ts';
import { User } from '../../models/User.ts';
import { Conflict, NotFound } from '../../web/errors.ts';
import type { CartService } from '../cart/cart.service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { toOrderDto, type OrderDto } from '../orders/order.dto.ts';
import type { PaymentEvent, PaymentProvider } from '../payments/provider.ts';
import type { Totals } from '../pricing/pricing.ts';
import type { ShippingInfo } from './checkout.schemas.ts';
import { quoteCart } from './quote.ts';
import { releaseHolds, sellHeldCopies, SoldOut, takeHolds } from './stock-holds.ts';

export const CHECKOUT_MESSAGES = {
  totalChanged: 'The order total has changed. Please review your order and try again.',
  notPaid: 'This payment has not gone through yet.',
  amountMismatch: 'This payment does not match the order. Please contact support.',
  soldOut: (title: string) => `Sorry, "${title}" has just sold out. Please update your cart and try again.`,
  refunded: (title: string) =>
    `We're sorry: "${title}" sold out before your payment completed. Your payment has been refunded in full; it may take 5-10 business days to appear.`,
};

export interface PaymentStart {
  clientSecret: string;
  paymentIntentId: string;
  /** What will be charged, in cents. */
  amount: number;
}

export interface CheckoutDeps {
  db: Db;
  carts: CartService;
  payments: PaymentProvider;
  mailer: Mailer;
  log: Logger;
  publicUrl: string;
}

export function createCheckoutService({ db, carts, payments, mailer, log, publicUrl }: CheckoutDeps) {
  async function paymentCustomer(userId: number): Promise<string> {
    const user = await User.query(db).findById(userId);
    if (!user) throw new NotFound('Account not found');
    if (user.paymentCustomerId) return user.paymentCustomerId;
    const customer = await payments.createCustomer({
      email: user.email,
      name: `${user.firstName} ${user.lastName}`.trim(),
      // Unique to this account, even across databases that share one Stripe account.
      idempotencyKey: `customer-${user.id}-${toDate(user.createdAt).getTime()}`,
    });
    await User.query(db).findById(user.id).patch({ paymentCustomerId: customer.id });
    return customer.id;
  }

  async function existingOrder(paymentIntentId: string): Promise<Order | undefined> {
    return Order.query(db).findOne({ stripePaymentIntentId: paymentIntentId }).withGraphFetched('items.book');
  }

  /** The paid order cannot be filled: the money goes back and the parent is told why. */
  async function refund(checkout: Checkout, title: string): Promise<never> {
    await payments.refund({ paymentIntentId: checkout.paymentIntentId, idempotencyKey: `refund-${checkout.paymentIntentId}` });
    const user = await User.query(db).findById(checkout.userId);
    await db.transaction(async (trx) => {
      await Checkout.query(trx).findById(checkout.id).patch({ status: 'refunded' });
      if (user) {
        await mailer.enqueue(trx, {
          to: user.email,
          template: 'order-refunded',
          data: { firstName: user.firstName, orderId: checkout.paymentIntentId, total: toDecimal(toCents(checkout.total)), reason: `"${title}" sold out before your payment completed.` },
          dedupeKey: `order-refunded:${checkout.paymentIntentId}`,
        });
      }
    });
    mailer.kick();
    log.warn({ paymentIntentId: checkout.paymentIntentId, title }, 'paid order could not be filled; refunded');
    throw new Conflict(CHECKOUT_MESSAGES.refunded(title));
  }

  async function fulfil(checkout: Checkout): Promise<Order> {
    const lines = checkout.parsedLines();
    const orderId = await db.transaction(async (trx) => {
      const already = await Order.query(trx).findOne({ stripePaymentIntentId: checkout.paymentIntentId });
      if (already) return already.id;
      await sellHeldCopies(trx, checkout.paymentIntentId, lines);
      const amounts = decimalAmounts(checkout);
      const order = await Order.query(trx).insert({
        userId: checkout.userId,
        status: 'succeeded',
        subtotal: amounts.subtotal,
        shipping: amounts.shipping,
        handling: amounts.handling,
        tax: amounts.tax,
        totalAmount: amounts.total,
        stripePaymentIntentId: checkout.paymentIntentId,
        shippingAddress: checkout.shippingAddress,
        city: checkout.city,
        state: checkout.state,
        zipCode: checkout.zipCode,
        estimatedDelivery: estimatedDelivery(new Date()),
      });
      for (const line of lines) {
        await trx('orderItems').insert({ orderId: order.id, bookId: line.bookId, title: line.title, quantity: line.quantity, price: toDecimal(line.priceCents) });
      }
      await Checkout.query(trx).findById(checkout.id).patch({ status: 'completed' });
      await carts.clear({ userId: checkout.userId }, trx);
      const user = await User.query(trx).findById(checkout.userId);
      await mailer.enqueue(trx, {
        to: user!.email,
        template: 'order-confirmation',
        data: {
          firstName: user!.firstName,
          orderId: order.id,
          items: lines.map((l) => ({ title: l.title, quantity: l.quantity, price: toDecimal(l.priceCents) })),
          ...amounts,
          shippingAddress: checkout.shippingAddress,
          city: checkout.city,
          zipCode: checkout.zipCode,
          orderUrl: `${publicUrl}/order-confirmation?orderId=${order.id}`,
        },
        dedupeKey: `order-confirmation:${order.id}`,
      });
      return order.id;
    });
    mailer.kick();
    return (await Order.query(db).findById(orderId).withGraphFetched('items.book'))!;
  }

  return {
    /** The payment provider's customer for this account, created on first use. */
    customerFor: paymentCustomer,

    async calculateTotals(owner: { userId?: number | undefined; cartId?: number | undefined }, shipping: ShippingInfo): Promise<Totals> {
      return (await quoteCart(carts, owner, shipping)).totals;
    },

    /**
     * Creates the payment intent for the signed-in customer's cart, with the amount the server
     * computes, and holds the copies. A total the browser claims must match it.
     */
    async startPayment({ userId, shipping, claimedTotalCents }: { userId: number; shipping: ShippingInfo; claimedTotalCents?: number | undefined }): Promise<PaymentStart> {
      await releaseHolds(db, { expiredBy: new Date() });
      const quote = await quoteCart(carts, { userId }, shipping);
      if (claimedTotalCents !== undefined && claimedTotalCents !== quote.totals.total) throw new Conflict(CHECKOUT_MESSAGES.totalChanged);
      const customerId = await paymentCustomer(userId);
      const intent = await payments.createPaymentIntent({
        amountCents: quote.totals.total,
        customerId,
        metadata: { userId: String(userId) },
        idempotencyKey: `intent-${randomUUID()}`,
      });
      try {
        await db.transaction(async (trx) => {
          await takeHolds(trx, intent.id, quote.lines);
          await Checkout.query(trx).insert({
            paymentIntentId: intent.id,
            userId,
            lines: JSON.stringify(quote.lines),
            subtotal: toDecimal(quote.totals.subtotal),
            shipping: toDecimal(quote.totals.shipping),
            handling: toDecimal(quote.totals.handling),
            tax: toDecimal(quote.totals.tax),
            total: toDecimal(quote.totals.total),
            shippingAddress: shipping.address,
            city: shipping.city,
            state: quote.state,
            zipCode: shipping.zipCode,
            status: 'open',
            createdAt: new Date(),
          });
        });
      } catch (err) {
        if (!(err instanceof SoldOut)) throw err;
        await payments.cancelPaymentIntent(intent.id, `cancel-${intent.id}`).catch((cancelErr: unknown) => log.warn({ err: cancelErr }, 'could not cancel intent'));
        throw new Conflict(CHECKOUT_MESSAGES.soldOut(err.title));
      }
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
      if (intent.amountCents !== toCents(checkout.total)) {
        log.error({ paymentIntentId, paid: intent.amountCents, expected: toCents(checkout.total) }, 'payment amount does not match its checkout');
        throw new Conflict(CHECKOUT_MESSAGES.amountMismatch);
      }
      if (checkout.status === 'refunded') throw new Conflict(CHECKOUT_MESSAGES.refunded(checkout.parsedLines()[0]?.title ?? 'A book'));

      try {
        return toOrderDto(await fulfil(checkout));
      } catch (err) {
        if (err instanceof SoldOut) return refund(checkout, err.title);
        // Two completions at once: the unique payment intent id let the other one win.
        const winner = await existingOrder(paymentIntentId);
        if (winner) return toOrderDto(winner);
        throw err;
      }
    },

    /** A verified provider event (Stripe's webhook, or the sandbox after it confirms a card). */
    async handlePaymentEvent(event: PaymentEvent): Promise<void> {
      if (event.type === 'payment_intent.succeeded') {
        await this.completeOrder({ paymentIntentId: event.paymentIntentId }).catch((err: unknown) => {
          if (err instanceof NotFound) return log.warn({ paymentIntentId: event.paymentIntentId }, 'payment for an unknown checkout');
          if (err instanceof Conflict) return log.warn({ paymentIntentId: event.paymentIntentId, err: err.message }, 'payment could not become an order');
          throw err;
        });
      } else if (event.type === 'payment_intent.payment_failed') {
        await releaseHolds(db, { paymentIntentId: event.paymentIntentId });
        await Checkout.query(db).patch({ status: 'failed' }).where({ paymentIntentId: event.paymentIntentId, status: 'open' });
      }
    },

    releaseExpiredHolds: (now = new Date()) => releaseHolds(db, { expiredBy: now }),
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

/** A checkout's amounts as "12.99" strings, however the driver returned the DECIMALs. */
function decimalAmounts(checkout: Checkout) {
  const money = (value: string | number) => toDecimal(toCents(value));
  return { subtotal: money(checkout.subtotal), shipping: money(checkout.shipping), handling: money(checkout.handling), tax: money(checkout.tax), total: money(checkout.total) };
}

/** Orders ship within 1-2 business days and arrive a few days later: five business days out. */
export function estimatedDelivery(from: Date): string {
  const date = new Date(from);
  let businessDays = 0;
  while (businessDays < 5) {
    date.setUTCDate(date.getUTCDate() + 1);
    const day = date.getUTCDay();
    if (day !== 0 && day !== 6) businessDays++;
  }
  return date.toISOString().slice(0, 10);
}
