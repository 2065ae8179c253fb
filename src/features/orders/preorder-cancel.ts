import type { Db } from '../../db.ts';
import { Order } from '../../models/Order.ts';
import { BadRequest, NotFound } from '../../web/errors.ts';
import { cancelLinkTokens, type CancelLink } from './cancel-link-token.ts';
import { toOrderDto, type OrderDto } from './order.dto.ts';
import { parentCancelRefusal } from './preorder-cancel.rules.ts';

// A parent cancels their own pre-order, from the dashboard or from the link in a date-move
// email, and is refunded in full at once. The money, the copies, the audit entry and the email
// go through the one cancel-and-refund the operator uses (admin/orders/order-refunds.ts),
// handed in as a function: it refuses, under the order's lock, anything but a pre-order.

/** OrderRefunds.cancel, as a parent's cancel calls it. */
export type CancelAndRefund = (orderId: number, actorId: number, requestKey: string, options: { by: 'parent' }) => Promise<void>;

export const CANCEL_LINK_PATH = '/preorders/cancel';

/** The words of the cancel pages. */
export const PREORDER_CANCEL_MESSAGES = {
  refused: 'The pre-order was not canceled',
  badLink: 'This link is not complete or has been changed. Please open it again from the email we sent.',
  done: (id: number) => ({
    title: `Pre-order #${id} canceled`,
    text: 'Your payment has been refunded in full, and we have emailed you a note of it.',
  }),
} as const;

export interface CancelLinkView {
  order: OrderDto;
  /** Why the order can no longer be canceled here; null while it is a pre-order. */
  refusal: string | null;
}

export function createPreorderCancel({
  db,
  cancelAndRefund,
  secret,
  publicUrl,
}: {
  db: Db;
  cancelAndRefund: CancelAndRefund;
  secret: string;
  publicUrl: string;
}) {
  const tokens = cancelLinkTokens(secret);

  function linkOf(token: string): CancelLink {
    const link = tokens.verify(token);
    if (!link) throw new BadRequest(PREORDER_CANCEL_MESSAGES.badLink);
    return link;
  }

  async function ownedOrder({ orderId, userId }: CancelLink): Promise<Order> {
    const order = await Order.query(db).findOne({ id: orderId, userId }).withGraphFetched('items.book');
    if (!order) throw new NotFound('Order not found');
    return order;
  }

  return {
    /** The one-click link of an order's emails: opening it shows the order and a button, and changes nothing. */
    linkFor(link: CancelLink): string {
      return `${publicUrl}${CANCEL_LINK_PATH}?token=${tokens.sign(link)}`;
    },

    /** The signed-in parent's own order; anyone else's is not found. */
    async cancelOwn(orderId: number, userId: number, requestKey: string): Promise<void> {
      await ownedOrder({ orderId, userId });
      await cancelAndRefund(orderId, userId, requestKey, { by: 'parent' });
    },

    /** What the link's page shows: the order, and whether it may still be canceled. A forged token is a 400. */
    async viewLink(token: string): Promise<CancelLinkView> {
      const order = await ownedOrder(linkOf(token));
      return { order: toOrderDto(order), refusal: parentCancelRefusal(order.status) };
    },

    /** The link page's button: the token is the proof, in the name of the parent it names. */
    async cancelByLink(token: string, requestKey: string): Promise<{ orderId: number }> {
      const link = linkOf(token);
      await ownedOrder(link);
      await cancelAndRefund(link.orderId, link.userId, requestKey, { by: 'parent' });
      return { orderId: link.orderId };
    },
  };
}

export type PreorderCancel = ReturnType<typeof createPreorderCancel>;
