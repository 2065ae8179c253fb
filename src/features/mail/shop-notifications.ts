import type { Knex } from 'knex';
import { longDate } from '../../lib/dates.ts';
import { isUrgent } from '../../models/ContactMessage.ts';
import type { Mailer } from './mailer.ts';

export interface NewOrderNotice {
  orderId: number;
  customer: { firstName: string; lastName: string; email: string };
  items: { title: string; quantity: number; price: string }[];
  total: string;
  address: { shippingAddress: string; city: string; state: string | null; zipCode: string };
  /** Whether the parent wrote a gift note or whom it is for: it ships with the gift slip. */
  gift: boolean;
  /** A pre-order's shipping day ("2027-03-02"); null or unset for an order to pack now. */
  preorderShipsOn?: string | null;
}

export interface NewMessageNotice {
  firstName: string;
  lastName: string;
  email: string;
  member: boolean;
  subject: string;
  message: string;
}

/**
 * Mail to the publisher (SHOP_NOTIFY_EMAIL) about a new paid order or contact message,
 * written to the outbox in the caller's transaction. Without an address nothing is sent.
 */
export function createShopNotifications({
  mailer,
  notifyEmail,
  publicUrl,
}: {
  mailer: Mailer;
  notifyEmail: string | undefined;
  publicUrl: string;
}) {
  return {
    async newOrder(trx: Knex.Transaction, notice: NewOrderNotice): Promise<void> {
      if (!notifyEmail) return;
      const { customer, address } = notice;
      await mailer.enqueue(trx, {
        to: notifyEmail,
        template: 'shop-new-order',
        data: {
          orderId: notice.orderId,
          customerName: `${customer.firstName} ${customer.lastName}`,
          customerEmail: customer.email,
          items: notice.items,
          total: notice.total,
          ...address,
          adminUrl: `${publicUrl}/admin/orders/${notice.orderId}`,
          giftSlipUrl: notice.gift ? `${publicUrl}/admin/orders/${notice.orderId}/gift-slip` : null,
          preorderShipsOn: notice.preorderShipsOn ? longDate(notice.preorderShipsOn) : null,
        },
        dedupeKey: `shop-new-order:${notice.orderId}`,
        orderId: notice.orderId,
      });
    },

    async newMessage(trx: Knex.Transaction, notice: NewMessageNotice): Promise<void> {
      if (!notifyEmail) return;
      await mailer.enqueue(trx, {
        to: notifyEmail,
        template: 'shop-new-message',
        data: {
          fromName: `${notice.firstName} ${notice.lastName}`,
          fromEmail: notice.email,
          member: notice.member,
          messageSubject: notice.subject,
          message: notice.message,
          urgent: isUrgent(notice.subject),
          inboxUrl: `${publicUrl}/admin/inbox`,
        },
      });
    },
  };
}

export type ShopNotifications = ReturnType<typeof createShopNotifications>;
