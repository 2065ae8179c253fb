import { formatUsdDecimal } from '../../lib/money.ts';
import { longDate } from '../../lib/dates.ts';
import { statusTone, type StatusTone } from './order-status.ts';
import { preorderedSentence } from '../catalog/preorder.rules.ts';

// What a parent is told about an order, from its display status (order-status.ts): the
// heading, the icon and the sentences of the confirmation page, the dashboard's order list and
// the confirmation email, so a canceled order never says 'Order Confirmed!' and a shipped one
// says where its parcel is.

export type OrderIcon = 'check' | 'truck' | 'home' | 'cross' | 'clock' | 'alert';

export interface OrderStory {
  heading: string;
  icon: OrderIcon;
  /** The icon's colour, the status badge's tone. */
  tone: StatusTone;
  sentences: string[];
}

export interface StoryFacts {
  id: number;
  /** The display status. */
  status: string;
  carrier?: string | null;
  trackingNumber?: string | null;
  estimatedDelivery?: string | null;
  /** "0.00" when nothing was given back. */
  refundedAmount?: string | null;
  /** A pre-order's shipping day: the latest publication date of its pre-ordered titles (preorder.rules.ts, shipsOn). */
  shipsOn?: string | null;
}

const SHIP_WITHIN = 'Your books will ship within 1-2 business days.';

/**
 * What the story of a paid, shipped or delivered order adds once money was given back on it
 * ("2099.00" refunded in all): the partial refund email says it in the same words.
 */
export function refundedSentence(refundedAmount: string): string {
  return `${formatUsdDecimal(refundedAmount)} of this order was refunded to your card.`;
}

export function orderStory(order: StoryFacts): OrderStory {
  const tone = statusTone(order.status);
  const refundedAmount = order.refundedAmount && order.refundedAmount !== '0.00' ? order.refundedAmount : null;
  const refunded = refundedAmount ? formatUsdDecimal(refundedAmount) : null;
  const refundNote = refundedAmount ? [refundedSentence(refundedAmount)] : [];
  const arrives = order.estimatedDelivery ? `It should arrive by ${longDate(order.estimatedDelivery)}.` : null;
  switch (order.status) {
    case 'succeeded':
      return {
        heading: 'Order Confirmed!',
        icon: 'check',
        tone,
        sentences: [`Thank you! ${SHIP_WITHIN}`, ...refundNote],
      };
    case 'preordered':
      return {
        heading: 'Pre-order Confirmed!',
        icon: 'clock',
        tone,
        sentences: [
          order.shipsOn ? preorderedSentence(order.shipsOn) : 'Pre-ordered: we will send it as soon as it is out.',
          'Everything in this order ships together. You can cancel it from your dashboard until then, for a full refund.',
          ...refundNote,
        ],
      };
    case 'shipped': {
      const carrier = order.carrier && order.carrier !== 'Other' ? ` with ${order.carrier}` : '';
      const tracking = order.trackingNumber ? ` Its tracking number is ${order.trackingNumber}.` : '';
      return {
        heading: 'Your Order Is on Its Way',
        icon: 'truck',
        tone,
        sentences: [`Good news: order #${order.id} has shipped${carrier}.${tracking}`, ...(arrives ? [arrives] : []), ...refundNote],
      };
    }
    case 'delivered':
      return {
        heading: 'Order Delivered',
        icon: 'home',
        tone,
        sentences: [`Order #${order.id} has been delivered. We hope the books bring many happy bedtimes.`, ...refundNote],
      };
    case 'canceled':
      return {
        heading: 'Order Canceled',
        icon: 'cross',
        tone,
        sentences: [
          refunded
            ? `Order #${order.id} was canceled and ${refunded} was refunded to your card.`
            : `Order #${order.id} was canceled and nothing was charged.`,
          'Depending on your bank, a refund can take 5 to 10 business days to appear on your statement.',
        ],
      };
    case 'processing':
      return {
        heading: 'Payment Processing',
        icon: 'clock',
        tone,
        sentences: [
          'Your bank is still confirming the payment. We will email you as soon as it goes through; please do not pay again.',
          'Once it does, your books will ship within 1-2 business days.',
        ],
      };
    case 'failed':
      return {
        heading: 'Payment Failed',
        icon: 'cross',
        tone,
        sentences: ['The payment for this order did not go through, so it will not ship. Nothing was charged.'],
      };
    case 'requires_payment_method':
    case 'requires_confirmation':
    case 'requires_action':
      return {
        heading: 'Payment Not Finished',
        icon: 'alert',
        tone,
        sentences: ['The payment for this order is not finished yet, so it will not ship. If you need a hand, please contact us.'],
      };
    default:
      return {
        heading: 'Order Received',
        icon: 'clock',
        tone,
        sentences: ['We have your order and are checking its payment. We will email you as soon as it is confirmed.'],
      };
  }
}
