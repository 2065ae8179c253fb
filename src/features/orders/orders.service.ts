import type { Db } from '../../db.ts';
import { Order } from '../../models/Order.ts';
import { NotFound } from '../../web/errors.ts';
import { toBreakdown, toOrderDto, type OrderBreakdown, type OrderDto } from './order.dto.ts';

// Every read is scoped by its owner: someone else's order is simply not found.
export function createOrdersService(db: Db) {
  const owned = (userId: number) => Order.query(db).where({ userId }).withGraphFetched('items.book');

  return {
    async listOrders(userId: number): Promise<OrderDto[]> {
      return (await owned(userId).orderBy('createdAt', 'desc').orderBy('id', 'desc')).map(toOrderDto);
    },

    async findOrder({ id, userId }: { id: number; userId: number }): Promise<OrderDto> {
      const order = await owned(userId).findById(id);
      if (!order) throw new NotFound('Order not found');
      return toOrderDto(order);
    },

    /** The card form's way back to an order another door made (the sandbox, the webhook). */
    async findOrderByPayment({ paymentIntentId, userId }: { paymentIntentId: string; userId: number }): Promise<OrderDto> {
      const order = await owned(userId).findOne({ stripePaymentIntentId: paymentIntentId });
      if (!order) throw new NotFound('Order not found');
      return toOrderDto(order);
    },

    async findBreakdown({ id, userId }: { id: number; userId: number }): Promise<OrderBreakdown> {
      const order = await Order.query(db).where({ userId }).findById(id);
      if (!order) throw new NotFound('Order not found');
      return toBreakdown(order);
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
