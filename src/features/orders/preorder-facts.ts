import type { Knex } from 'knex';
import type { Order } from '../../models/Order.ts';
import { OrderItem } from '../../models/OrderItem.ts';
import { shipsOn, type ShippingLine } from '../catalog/preorder.rules.ts';

// A pre-order's shipping day is never stored: it follows its titles' publication dates as they
// stand now, so a date the operator moves moves every page and email that tells the order.

/** An order's lines as the shipping rule sees them, from an order read with `items.book`. */
export function shippingLines(order: Pick<Order, 'items'>): ShippingLine[] {
  return (order.items ?? [])
    .filter((item) => item.book)
    .map((item) => ({ preorder: Boolean(item.preorder), publishedOn: item.book!.publishedOn }));
}

/** The day a paid pre-order ships; null for any other order (a released one ships as any order does). */
export function orderShipsOn(order: Pick<Order, 'status' | 'items'>): string | null {
  return order.status === 'preordered' ? shipsOn(shippingLines(order)) : null;
}

/** The same day read in a transaction, for the emails sent from one (the latest date of its pre-ordered titles). */
export async function shipsOnIn(trx: Knex | Knex.Transaction, orderId: number): Promise<string | null> {
  const items = await OrderItem.query(trx).where({ orderId, preorder: true }).withGraphFetched('book');
  return shipsOn(items.filter((item) => item.book).map((item) => ({ preorder: true, publishedOn: item.book!.publishedOn })));
}
