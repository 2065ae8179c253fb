import type { Knex } from 'knex';
import type { Db } from '../../../db.ts';
import type { Logger } from '../../../log.ts';
import { formatUsd, toDecimal, type Cents } from '../../../lib/money.ts';
import { Order } from '../../../models/Order.ts';
import { OrderItem } from '../../../models/OrderItem.ts';
import { Refund } from '../../../models/Refund.ts';
import { BadRequest, Conflict, isClientError, NotFound } from '../../../web/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { PaymentError, type PaymentProvider } from '../../payments/provider.ts';
import { orderStory, refundedSentence } from '../../orders/order-story.ts';
import { assertRefundable, assertTransition, requiredStatuses } from '../../orders/order-transitions.ts';
import { parentCancelRefusal } from '../../orders/preorder-cancel.rules.ts';
import { writeAudit } from '../../../models/AuditEntry.ts';
import { customerOf, fulfilmentSnapshot, lockOrder } from './order-lock.ts';
import { bumpCatalogueVersion } from '../../catalog/catalogue-version.ts';

// Cancel-and-refund and partial refunds. Money moves in three steps:
//   1. under the order's lock, a refunds row is reserved ('pending') for the amount, so the
//      reserved and refunded amounts together never exceed what was paid;
//   2. outside the lock, the provider is asked, with idempotency key refund-<row id>;
//   3. under the lock again, whoever moves the row from pending to succeeded (a conditional
//      update) applies the rest: refunded total, status, stock, audit entry, email.
// The form's request key (refunds.request_key, unique) makes a double click, a second tab or
// a retried request find the row of the first instead of refunding again. A pending row left
// by a crash between steps 2 and 3 is resumed by the next attempt with the same provider key.

/** A refund still pending after this long was left behind (a stopped process, the provider out of reach). */
export const STALE_REFUND_MS = 10 * 60_000;

/** Request keys carry what they were for, so a cancel can find its own pending refund. */
const CANCEL = 'cancel:';
const PARTIAL = 'refund:';
/** A cancel the parent asked for (a pre-order, from the dashboard or the link in an email): told so on the timeline. */
const PARENT_CANCEL = `${CANCEL}parent:`;

/** Who asked for a cancel: an operator on the order page, or the parent of a pre-order. */
export type CancelBy = 'operator' | 'parent';

export interface PartialRefund {
  amountCents: Cents;
  reason: string;
}

export function createOrderRefunds({ db, payments, mailer, log }: { db: Db; payments: PaymentProvider; mailer: Mailer; log: Logger }) {
  /** Total minus what has been refunded or is being refunded. */
  async function leftToRefund(trx: Knex.Transaction, order: Order): Promise<Cents> {
    const pending = await Refund.query(trx).where({ orderId: order.id, status: 'pending' });
    const reserved = pending.reduce((sum, r) => sum + r.amount, 0);
    return order.totalAmount - order.refundedAmount - reserved;
  }

  /** A row already made for this form submission: done, refused before, or to resume. */
  function replay(existing: Refund): Refund | 'done' {
    if (existing.status === 'succeeded') return 'done';
    if (existing.status === 'failed') throw new PaymentError(refusedMessage(existing.error), 409);
    return existing;
  }

  async function askProvider(order: Order, refund: Refund, actorId: number): Promise<void> {
    // Nothing left to give back (partial refunds covered it all): a cancel just cancels.
    if (!order.stripePaymentIntentId || refund.amount === 0) return;
    try {
      await payments.refund({
        paymentIntentId: order.stripePaymentIntentId,
        idempotencyKey: `refund-${refund.id}`,
        amountCents: refund.amount,
      });
    } catch (err) {
      // Refused (a 4xx from the provider): the row fails and nothing else changes. Out of
      // reach (503) or unknown: the row stays pending, to be resumed with the same key.
      if (!isClientError(err)) throw err;
      await db.transaction(async (trx) => {
        await lockOrder(trx, order.id);
        const moved = await Refund.query(trx)
          .findById(refund.id)
          .where({ status: 'pending' })
          .patch({ status: 'failed', error: err.message.slice(0, 500), settledAt: new Date() });
        if (moved === 1) {
          await writeAudit(trx, {
            actorId,
            action: 'refund_failed',
            orderId: order.id,
            before: { refundId: refund.id, amount: toDecimal(refund.amount) },
            after: { error: err.message },
          });
        }
      });
      throw new PaymentError(refusedMessage(err.message), err.status);
    }
  }

  /** Step 3: true for the one caller that moved the refund from pending to succeeded. */
  async function settle(trx: Knex.Transaction, refund: Refund): Promise<boolean> {
    const moved = await Refund.query(trx)
      .findById(refund.id)
      .where({ status: 'pending' })
      .patch({ status: 'succeeded', settledAt: new Date() });
    return moved === 1;
  }

  /** Step 3 of a cancel: money back, status canceled, stock returned, customer told. Once. */
  async function finishCancel(orderId: number, refund: Refund, actorId: number): Promise<void> {
    await db.transaction(async (trx) => {
      const current = await lockOrder(trx, orderId);
      if (!(await settle(trx, refund))) return;
      const refunded = current.refundedAmount + refund.amount;
      const canceledAt = new Date();
      await Order.query(trx)
        .findById(orderId)
        .whereIn('status', requiredStatuses('canceled'))
        .patch({ status: 'canceled', canceledAt, refundedAmount: refunded });
      const items = await OrderItem.query(trx).where({ orderId });
      const { restocked, unpromised } = await returnCopies(trx, current.status, items);
      if (items.length > 0) await bumpCatalogueVersion(trx);
      const by: CancelBy = refund.requestKey.startsWith(PARENT_CANCEL) ? 'parent' : 'operator';
      await writeAudit(trx, {
        actorId,
        action: 'canceled',
        orderId,
        before: fulfilmentSnapshot(current),
        after: {
          ...fulfilmentSnapshot(current),
          status: 'canceled',
          refundedAmount: toDecimal(refunded),
          refund: { amount: toDecimal(refund.amount), reason: refund.reason },
          by,
          restocked,
          // Pre-ordered copies given back to the title's pre-order count (none were taken from the shelf).
          unpromised,
        },
      });
      const customer = await customerOf(trx, current);
      if (customer)
        await mailer.enqueue(trx, {
          to: customer.email,
          template: 'order-canceled',
          data: {
            firstName: customer.firstName,
            orderId,
            refunded: toDecimal(refunded),
            // Told as the order's page now tells it: what the order has had back in all.
            story: orderStory({ id: orderId, status: 'canceled', refundedAmount: toDecimal(refunded) }),
          },
          dedupeKey: `order-canceled:${orderId}`,
          orderId,
        });
    });
    mailer.kick();
  }

  /** Step 3 of a partial refund: the refunded total grows, the customer is told. Once. */
  async function finishPartial(orderId: number, refund: Refund, actorId: number): Promise<void> {
    await db.transaction(async (trx) => {
      const current = await lockOrder(trx, orderId);
      if (!(await settle(trx, refund))) return;
      const amount = refund.amount;
      const refunded = current.refundedAmount + amount;
      await Order.query(trx).findById(orderId).patch({ refundedAmount: refunded });
      await writeAudit(trx, {
        actorId,
        action: 'refunded',
        orderId,
        before: fulfilmentSnapshot(current),
        after: {
          ...fulfilmentSnapshot(current),
          refundedAmount: toDecimal(refunded),
          refund: { amount: toDecimal(amount), reason: refund.reason },
        },
      });
      const customer = await customerOf(trx, current);
      if (customer)
        await mailer.enqueue(trx, {
          to: customer.email,
          template: 'order-partial-refund',
          data: {
            firstName: customer.firstName,
            orderId,
            amount: toDecimal(amount),
            reason: refund.reason,
            refundedSoFar: refundedSentence(toDecimal(refunded)),
          },
          dedupeKey: `order-partial-refund:${refund.id}`,
          orderId,
        });
    });
    mailer.kick();
  }

  /**
   * Asks the provider again about a refund left pending (the shop stopped, or the provider
   * was out of reach, after the row was reserved), with the same idempotency key, and
   * finishes it: the money is never sent twice.
   */
  async function resume(orderId: number, refundId: number, actorId: number): Promise<void> {
    const found = await db.transaction(async (trx) => {
      const order = await lockOrder(trx, orderId);
      const refund = await Refund.query(trx).findOne({ id: refundId, orderId });
      if (!refund) throw new NotFound('Refund not found');
      return { order, refund: replay(refund) };
    });
    if (found.refund === 'done') return;
    const { order, refund } = found;
    await askProvider(order, refund, actorId);
    if (refund.requestKey.startsWith(CANCEL)) await finishCancel(orderId, refund, actorId);
    else await finishPartial(orderId, refund, actorId);
  }

  return {
    /**
     * Cancels the order and refunds what is left of its payment, at once. An operator may cancel
     * any paid order not shipped yet; a parent only a pre-order still waiting for its books
     * (refused with parentCancelRefusal's words, checked under the order's lock).
     */
    async cancel(orderId: number, actorId: number, requestKey: string, { by = 'operator' }: { by?: CancelBy } = {}): Promise<void> {
      const key = (by === 'parent' ? PARENT_CANCEL : CANCEL) + requestKey;
      const reserved = await db.transaction(async (trx) => {
        const order = await lockOrder(trx, orderId);
        const existing = await Refund.query(trx).findOne({ requestKey: key });
        if (existing) return { order, refund: replay(existing) };
        const refused = by === 'parent' ? parentCancelRefusal(order.status) : null;
        if (refused) throw new Conflict(refused);
        // A cancel whose provider call did not finish (a crash, a second tab): resume it.
        const unfinished = await Refund.query(trx).where({ orderId, status: 'pending' }).where('requestKey', 'like', `${CANCEL}%`).first();
        if (unfinished) return { order, refund: unfinished };
        assertTransition(order.status, 'canceled');
        if (await Refund.query(trx).findOne({ orderId, status: 'pending' })) {
          throw new Conflict('A refund on this order is still in progress. Please try again in a minute.');
        }
        const amount = await leftToRefund(trx, order);
        const refund = await openRefund(trx, { orderId, amount, reason: 'Order canceled', requestKey: key, actorId });
        return { order, refund };
      });
      if (reserved.refund === 'done') return;
      const { order, refund } = reserved;
      await askProvider(order, refund, actorId);

      await finishCancel(orderId, refund, actorId);
    },

    async refund(orderId: number, { amountCents, reason }: PartialRefund, actorId: number, requestKey: string): Promise<void> {
      if (!Number.isInteger(amountCents) || amountCents <= 0)
        throw new BadRequest('Please enter an amount greater than $0.00.', { field: 'amount' });
      const key = PARTIAL + requestKey;
      const reserved = await db.transaction(async (trx) => {
        const order = await lockOrder(trx, orderId);
        const existing = await Refund.query(trx).findOne({ requestKey: key });
        if (existing) return { order, refund: replay(existing) };
        assertRefundable(order.status);
        const left = await leftToRefund(trx, order);
        if (amountCents > left) {
          throw new Conflict(
            left > 0
              ? `You can refund at most ${formatUsd(left)} on this order.`
              : 'Everything paid for this order has been refunded (or is being refunded) already.',
            { field: 'amount' },
          );
        }
        const refund = await openRefund(trx, { orderId, amount: amountCents, reason, requestKey: key, actorId });
        return { order, refund };
      });
      if (reserved.refund === 'done') return;
      const { order, refund } = reserved;
      await askProvider(order, refund, actorId);

      await finishPartial(orderId, refund, actorId);
    },

    /** For the scheduled sweep: finishes refunds left pending, in the name of the operator who asked. */
    async resumeStale(now = new Date()): Promise<number> {
      const stale = await Refund.query(db)
        .where({ status: 'pending' })
        .where('createdAt', '<=', new Date(now.getTime() - STALE_REFUND_MS))
        .orderBy('id')
        .limit(20);
      let finished = 0;
      for (const refund of stale) {
        try {
          await resume(refund.orderId, refund.id, refund.actorId!);
          finished++;
        } catch (err) {
          // Refused: recorded as failed, and the order page shows it. Anything else (the provider
          // or the database out of reach): still pending, tried again on the next sweep.
          const facts = { err, refundId: refund.id, orderId: refund.orderId };
          if (isClientError(err)) log.warn(facts, 'a refund left in progress was refused; recorded as failed');
          else log.error(facts, 'could not finish a refund left in progress; trying again on the next sweep');
        }
      }
      return finished;
    },

    resume,
  };
}

/**
 * The copies a canceled order gives back. A pre-order's pre-ordered lines were never taken from
 * the shelf: they go back to the title's pre-order count, which reopens them to other parents.
 * Every other line (an ordinary line, or any line of an order already released to To pack,
 * served from stock) goes back on the shelf.
 */
async function returnCopies(
  trx: Knex.Transaction,
  status: string,
  items: readonly OrderItem[],
): Promise<{ restocked: Array<{ bookId: number; quantity: number }>; unpromised: Array<{ bookId: number; quantity: number }> }> {
  const restocked: Array<{ bookId: number; quantity: number }> = [];
  const unpromised: Array<{ bookId: number; quantity: number }> = [];
  for (const item of items) {
    const line = { bookId: item.bookId, quantity: item.quantity };
    if (status === 'preordered' && item.preorder) {
      // Never below zero, whatever an operator did to the count by hand.
      await trx('books')
        .where({ id: item.bookId })
        .update({ preordered: trx.raw('CASE WHEN preordered > ? THEN preordered - ? ELSE 0 END', [item.quantity, item.quantity]) });
      unpromised.push(line);
    } else {
      await trx('books').where({ id: item.bookId }).increment('inStock', item.quantity);
      restocked.push(line);
    }
  }
  return { restocked, unpromised };
}

/** A refund reserved under the order's lock, before the provider is asked: its key makes a retry a replay. */
function openRefund(
  trx: Knex.Transaction,
  fields: { orderId: number; amount: Cents; reason: string; requestKey: string; actorId: number },
): PromiseLike<Refund> {
  return Refund.query(trx).insertAndFetch({ ...fields, status: 'pending', createdAt: new Date() });
}

function refusedMessage(reason: string | null): string {
  return `The payment provider refused the refund: ${reason ?? 'no reason given'}`;
}

export type OrderRefunds = ReturnType<typeof createOrderRefunds>;
