import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import type { Logger } from '../../log.ts';
import { toDecimal } from '../../lib/money.ts';
import { orderStory } from '../orders/order-story.ts';
import { shipsOnIn } from '../orders/preorder-facts.ts';
import { Checkout } from '../../models/Checkout.ts';
import { Order } from '../../models/Order.ts';
import { OrderItem } from '../../models/OrderItem.ts';
import { User } from '../../models/User.ts';
import type { CartService } from '../cart/cart.service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createShopNotifications } from '../mail/shop-notifications.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { decimalTotals } from '../pricing/pricing.ts';
import { sellHeldCopies, SoldOut } from './stock-holds.ts';
import { confirmUse, releaseUse } from '../discounts/discount-uses.ts';
import { saveAddress } from '../accounts/saved-address.ts';
import { lockForSale, saleTransaction } from './lock-order.ts';

// A paid checkout becomes an order exactly once, whichever door arrives first (the browser,
// the sandbox's confirm, Stripe's webhook, the sweep) and however many arrive at once.
// Everything is decided while holding the checkout row's lock, taken in the shop's one lock
// order (lock-order.ts; SQLite runs one writer at a time): only the holder may sell the held
// copies, and a refund is decided only when, under that lock, the copies are certainly gone.

/** `preorder`: the title that could not be filled ran out of pre-order copies, not stock. */
export type Settlement = { kind: 'order'; order: Order } | { kind: 'refunded'; title: string; preorder: boolean };

export interface CompletionDeps {
  db: Db;
  carts: CartService;
  payments: PaymentProvider;
  mailer: Mailer;
  log: Logger;
  publicUrl: string;
  /** SHOP_NOTIFY_EMAIL: told of each new paid order; undefined sends nothing. */
  notifyEmail: string | undefined;
}

type Decision = { kind: 'order'; orderId: number } | { kind: 'refund'; title: string };

export function createOrderCompletion({ db, carts, payments, mailer, log, publicUrl, notifyEmail }: CompletionDeps) {
  const notify = createShopNotifications({ mailer, notifyEmail, publicUrl });

  /** The checkout as it stands, with every row its sale may touch locked in the lock order. */
  async function lockCheckout(trx: Knex.Transaction, { id, userId }: Checkout): Promise<Checkout> {
    await lockForSale(trx, { userId: userId ?? undefined });
    const checkout = (await Checkout.query(trx).findById(id).forUpdate())!;
    const bookIds = checkout.parsedLines().map((line) => line.bookId);
    await lockForSale(trx, { codes: [checkout.discountCode], bookIds });
    return checkout;
  }

  /** Under the checkout's lock: the existing order, a new one, or the certainty that it cannot be filled. */
  async function decide(of: Checkout): Promise<Decision> {
    const decision = await saleTransaction(db, (trx) => decideLocked(trx, of));
    mailer.kick();
    return decision;
  }

  async function decideLocked(trx: Knex.Transaction, of: Checkout): Promise<Decision> {
    const checkout = await lockCheckout(trx, of);
    if (checkout.status === 'completed') {
      const order = await Order.query(trx).findOne({ stripePaymentIntentId: checkout.paymentIntentId });
      return { kind: 'order', orderId: order!.id };
    }
    if (checkout.status === 'refunding' || checkout.status === 'refunded')
      return { kind: 'refund', title: checkout.soldOutTitle ?? 'A book' };
    try {
      // A savepoint: a sold-out line undoes the lines sold before it, and the lock stays held.
      return { kind: 'order', orderId: await trx.transaction((inner) => createOrder(inner, checkout)) };
    } catch (err) {
      if (!(err instanceof SoldOut)) throw err;
      await Checkout.query(trx).findById(checkout.id).patch({ status: 'refunding', soldOutTitle: err.title });
      await releaseUse(trx, checkout);
      return { kind: 'refund', title: err.title };
    }
  }

  async function createOrder(trx: Knex.Transaction, checkout: Checkout): Promise<number> {
    // An account with a checkout still to settle cannot be erased (privacy/account-erasure.ts).
    const userId = checkout.userId;
    if (userId === null) throw new Error(`checkout ${checkout.id} is unsettled but has no account`);
    const lines = checkout.parsedLines();
    await sellHeldCopies(trx, checkout.paymentIntentId, lines);
    const amounts = decimalTotals(checkout);
    // A pre-order is paid now and waits for its titles; the release on publication day sets its delivery date.
    const preordered = lines.some((line) => line.preorder);
    const order = await Order.query(trx).insert({
      userId,
      status: preordered ? 'preordered' : 'succeeded',
      subtotal: checkout.subtotal,
      discountCode: checkout.discountCode,
      discount: checkout.discount,
      shipping: checkout.shipping,
      handling: checkout.handling,
      tax: checkout.tax,
      totalAmount: checkout.total,
      stripePaymentIntentId: checkout.paymentIntentId,
      shippingAddress: checkout.shippingAddress,
      city: checkout.city,
      state: checkout.state,
      zipCode: checkout.zipCode,
      giftNote: checkout.giftNote,
      giftRecipient: checkout.giftRecipient,
      estimatedDelivery: preordered ? null : estimatedDelivery(new Date()),
    });
    for (const line of lines) {
      await OrderItem.query(trx).insert({
        orderId: order.id,
        bookId: line.bookId,
        title: line.title,
        quantity: line.quantity,
        price: line.priceCents,
        preorder: Boolean(line.preorder),
      });
    }
    const shipsOn = preordered ? await shipsOnIn(trx, order.id) : null;
    await confirmUse(trx, checkout);
    await Checkout.query(trx).findById(checkout.id).patch({ status: 'completed' });
    await carts.clear({ userId }, trx);
    const user = (await User.query(trx).findById(userId))!;
    // The next checkout offers the address this one shipped to.
    await saveAddress(trx, user.id, { address: checkout.shippingAddress, city: checkout.city, zipCode: checkout.zipCode });
    await mailer.enqueue(trx, {
      to: user.email,
      template: 'order-confirmation',
      data: {
        firstName: user.firstName,
        orderId: order.id,
        items: lines.map((l) => ({ title: l.title, quantity: l.quantity, price: toDecimal(l.priceCents) })),
        ...amounts,
        discountCode: checkout.discountCode ?? '',
        shippingAddress: checkout.shippingAddress,
        city: checkout.city,
        state: checkout.state,
        zipCode: checkout.zipCode,
        giftNote: checkout.giftNote,
        giftRecipient: checkout.giftRecipient,
        orderUrl: `${publicUrl}/order-confirmation?orderId=${order.id}`,
        story: orderStory({ id: order.id, status: order.status, estimatedDelivery: order.estimatedDelivery, shipsOn }),
      },
      dedupeKey: `order-confirmation:${order.id}`,
      orderId: order.id,
    });
    await notify.newOrder(trx, {
      orderId: order.id,
      customer: user,
      items: lines.map((l) => ({ title: l.title, quantity: l.quantity, price: toDecimal(l.priceCents) })),
      total: amounts.total,
      address: { shippingAddress: checkout.shippingAddress, city: checkout.city, state: checkout.state, zipCode: checkout.zipCode },
      gift: Boolean(checkout.giftNote || checkout.giftRecipient),
      preorderShipsOn: shipsOn,
    });
    return order.id;
  }

  /**
   * Gives the money back for a checkout already decided unfillable. The provider call carries
   * an idempotency key, so a retry (another door, the sweep) never refunds twice; whoever
   * moves the checkout from refunding to refunded tells the parent.
   */
  async function refund(checkout: Checkout, title: string, preorder: boolean): Promise<void> {
    await payments.refund({ paymentIntentId: checkout.paymentIntentId, idempotencyKey: `refund-${checkout.paymentIntentId}` });
    await db.transaction(async (trx) => {
      const moved = await Checkout.query(trx).findById(checkout.id).patch({ status: 'refunded' }).where({ status: 'refunding' });
      if (moved !== 1 || checkout.userId === null) return;
      const user = await User.query(trx).findById(checkout.userId);
      if (!user) return;
      await mailer.enqueue(trx, {
        to: user.email,
        template: 'order-refunded',
        data: {
          firstName: user.firstName,
          orderId: checkout.paymentIntentId,
          total: toDecimal(checkout.total),
          reason: preorder
            ? `Every pre-order copy of "${title}" was taken before your payment completed.`
            : `"${title}" sold out before your payment completed.`,
        },
        dedupeKey: `order-refunded:${checkout.paymentIntentId}`,
      });
      log.warn({ paymentIntentId: checkout.paymentIntentId, title }, 'paid order could not be filled; refunded');
    });
    mailer.kick();
  }

  return {
    /** Settles a checkout whose payment the provider says has succeeded. */
    async settle(checkout: Checkout): Promise<Settlement> {
      const decision = await decide(checkout);
      if (decision.kind === 'refund') {
        const preorder = ranOutOfPreorders(checkout, decision.title);
        await refund(checkout, decision.title, preorder);
        return { kind: 'refunded', title: decision.title, preorder };
      }
      return { kind: 'order', order: (await Order.query(db).findById(decision.orderId).withGraphFetched('items.book'))! };
    },
  };
}

export type OrderCompletion = ReturnType<typeof createOrderCompletion>;

/** Whether the title a paid checkout could not be filled with was one of its pre-order lines. */
function ranOutOfPreorders(checkout: Checkout, title: string): boolean {
  return checkout.parsedLines().some((line) => line.title === title && line.preorder);
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
