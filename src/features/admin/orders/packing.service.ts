import type { Db } from '../../../db.ts';
import { Order } from '../../../models/Order.ts';
import { User } from '../../../models/User.ts';
import { NotFound } from '../../../web/errors.ts';

export interface PackingOrder {
  id: number;
  createdAt: Date | string;
  shipTo: { name: string; address: string; city: string; state: string | null; zipCode: string };
  lines: { title: string; quantity: number }[];
  /** The parent's gift note, for the gift packing slip; null when none. */
  giftNote: string | null;
  giftRecipient: string | null;
}

/** Paid orders waiting to be packed, and the slip that goes in each box. */
export function createPacking(db: Db) {
  async function withCustomers(orders: Order[]): Promise<PackingOrder[]> {
    const ids = [...new Set(orders.flatMap((o) => (o.userId === null ? [] : [o.userId])))];
    const users = ids.length ? await User.query(db).findByIds(ids).select('id', 'firstName', 'lastName') : [];
    const names = new Map(users.map((u) => [u.id, `${u.firstName} ${u.lastName}`]));
    return orders.map((order) => ({
      id: order.id,
      createdAt: order.createdAt,
      shipTo: {
        name: (order.userId !== null && names.get(order.userId)) || '',
        address: order.shippingAddress,
        city: order.city,
        state: order.state,
        zipCode: order.zipCode,
      },
      lines: (order.items ?? []).map((item) => ({ title: item.title, quantity: Number(item.quantity) })),
      giftNote: order.giftNote ?? null,
      giftRecipient: order.giftRecipient ?? null,
    }));
  }

  return {
    /** Paid and not yet shipped, first in first out. */
    async toPack(): Promise<PackingOrder[]> {
      const orders = await Order.query(db)
        .where({ status: 'succeeded' })
        .withGraphFetched('items')
        .modifyGraph('items', (items) => items.orderBy('id'))
        .orderBy([
          { column: 'createdAt', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]);
      return withCustomers(orders);
    },

    async slip(orderId: number): Promise<PackingOrder> {
      const order = await Order.query(db)
        .findById(orderId)
        .withGraphFetched('items')
        .modifyGraph('items', (items) => items.orderBy('id'));
      if (!order) throw new NotFound('Page Not Found');
      return (await withCustomers([order]))[0]!;
    },
  };
}

export type Packing = ReturnType<typeof createPacking>;
