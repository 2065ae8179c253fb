import type { Db } from '../../../db.ts';
import { longDate } from '../../../lib/dates.ts';
import { toDecimal } from '../../../lib/money.ts';
import { Order } from '../../../models/Order.ts';
import { Refund } from '../../../models/Refund.ts';
import { Conflict } from '../../../web/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { trackingUrl, type Carrier } from '../../orders/carriers.ts';
import { orderStory } from '../../orders/order-story.ts';
import { assertTransition, requiredStatuses } from '../../orders/order-transitions.ts';
import { writeAudit } from '../../../models/AuditEntry.ts';
import { customerOf, fulfilmentSnapshot, lockOrder } from './order-lock.ts';

// Shipping and delivery. Each action locks the order, checks the transition, changes the row
// only if it still has the status read under the lock, and records the audit entry and the
// customer's email in the same transaction: all of it happens once, or none of it.

export interface Shipment {
  carrier: Carrier;
  trackingNumber: string;
  /** YYYY-MM-DD */
  estimatedDelivery: string;
}

export function createFulfilment({ db, mailer, publicUrl }: { db: Db; mailer: Mailer; publicUrl: string }) {
  return {
    async ship(orderId: number, shipment: Shipment, actorId: number): Promise<void> {
      await db.transaction(async (trx) => {
        const order = await lockOrder(trx, orderId);
        assertTransition(order.status, 'shipped');
        // A cancel whose refund is still with the provider owns this order.
        const canceling = await Refund.query(trx).where({ orderId, status: 'pending' }).where('requestKey', 'like', 'cancel:%').first();
        if (canceling) throw new Conflict('This order is being canceled, so it cannot be marked shipped.');
        const now = new Date();
        const changes = {
          status: 'shipped',
          carrier: shipment.carrier,
          trackingNumber: shipment.trackingNumber,
          estimatedDelivery: shipment.estimatedDelivery,
          shippedAt: now,
        };
        const moved = await Order.query(trx).findById(orderId).whereIn('status', requiredStatuses('shipped')).patch(changes);
        if (moved !== 1) throw new Conflict('This order changed while you were working on it. Please reload it.');
        const after = {
          ...fulfilmentSnapshot(order),
          status: 'shipped',
          carrier: shipment.carrier,
          trackingNumber: shipment.trackingNumber,
          estimatedDelivery: shipment.estimatedDelivery,
        };
        await writeAudit(trx, { actorId, action: 'shipped', orderId, before: fulfilmentSnapshot(order), after });
        const customer = await customerOf(trx, order);
        if (customer)
          await mailer.enqueue(trx, {
            to: customer.email,
            template: 'order-shipped',
            data: {
              firstName: customer.firstName,
              orderId,
              carrier: shipment.carrier,
              trackingNumber: shipment.trackingNumber,
              trackingLink: trackingUrl(shipment.carrier, shipment.trackingNumber) ?? '',
              estimatedDelivery: longDate(shipment.estimatedDelivery),
              orderUrl: `${publicUrl}/order-confirmation?orderId=${orderId}`,
              // Told as the order's page now tells it, with any refund already given.
              story: orderStory({
                id: orderId,
                status: 'shipped',
                carrier: shipment.carrier,
                trackingNumber: shipment.trackingNumber,
                estimatedDelivery: shipment.estimatedDelivery,
                refundedAmount: toDecimal(order.refundedAmount),
              }),
            },
            dedupeKey: `order-shipped:${orderId}`,
            orderId,
          });
      });
      mailer.kick();
    },

    async markDelivered(orderId: number, actorId: number): Promise<void> {
      await db.transaction(async (trx) => {
        const order = await lockOrder(trx, orderId);
        assertTransition(order.status, 'delivered');
        const changes = { status: 'delivered', deliveredAt: new Date() };
        const moved = await Order.query(trx).findById(orderId).whereIn('status', requiredStatuses('delivered')).patch(changes);
        if (moved !== 1) throw new Conflict('This order changed while you were working on it. Please reload it.');
        await writeAudit(trx, {
          actorId,
          action: 'delivered',
          orderId,
          before: fulfilmentSnapshot(order),
          after: { ...fulfilmentSnapshot(order), status: 'delivered' },
        });
      });
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
