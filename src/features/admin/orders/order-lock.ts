import type { Knex } from 'knex';
import { toDecimal } from '../../../lib/money.ts';
import { Order } from '../../../models/Order.ts';
import { User } from '../../../models/User.ts';
import { NotFound } from '../../../web/errors.ts';

/**
 * The order row, locked for the rest of the transaction (SELECT ... FOR UPDATE on MySQL;
 * SQLite runs one writer at a time): every fulfilment decision is made while holding it.
 */
export async function lockOrder(trx: Knex.Transaction, orderId: number): Promise<Order> {
  const order = await Order.query(trx).findById(orderId).forUpdate();
  if (!order) throw new NotFound('Order not found');
  return order;
}

/** The parent who placed the order; none once they erased their account. */
export async function customerOf(trx: Knex.Transaction, order: Order): Promise<User | undefined> {
  return order.userId === null ? undefined : User.query(trx).findById(order.userId);
}

/** What the audit log keeps of an order before and after an action. */
export function fulfilmentSnapshot(order: Order) {
  return {
    status: order.status,
    carrier: order.carrier ?? null,
    trackingNumber: order.trackingNumber ?? null,
    estimatedDelivery: order.estimatedDelivery ?? null,
    refundedAmount: toDecimal(order.refundedAmount),
  };
}
