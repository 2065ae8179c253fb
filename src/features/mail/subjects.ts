import { formatUsdDecimal, toCents } from '../../lib/money.ts';
import type { MailData, MailTemplate } from './mail.types.ts';

/** The subject line of each message, built from the same data as its body. */
export const subjects: { readonly [T in MailTemplate]: (data: MailData[T]) => string } = {
  welcome: () => 'Welcome to Little Lantern Books',
  'temporary-password': () => 'We secured your account after failed sign-ins',
  'reset-link': () => 'Reset your Little Lantern Books password',
  'password-changed': () => 'Your password was changed',
  'order-confirmation': (d) => `Your order #${d.orderId} is confirmed`,
  'order-refunded': (d) => `About your order #${d.orderId}: refunded`,
  'order-shipped': (d) => `Your order #${d.orderId} is on its way`,
  // An order with nothing charged was not refunded, and its story says so.
  'order-canceled': (d) => `Your order #${d.orderId} was canceled${toCents(d.refunded) > 0 ? ' and refunded' : ''}`,
  'order-partial-refund': (d) => `A refund on your order #${d.orderId}`,
  'preorder-date-moved': (d) => `${d.title} has a new date: about your pre-order #${d.orderId}`,
  'contact-received': () => 'We received your message',
  'account-deleted': () => 'Your Little Lantern Books account has been deleted',
  'back-in-stock-waiting': (d) => `We will email you when ${d.title} is back`,
  'back-in-stock': (d) => `${d.title} is back in stock`,
  'shop-new-order': (d) =>
    `New ${d.preorderShipsOn ? 'pre-order' : 'order'} #${d.orderId}: ${formatUsdDecimal(d.total)} from ${d.customerName}`,
  // URGENT leads the line so it stands out in the publisher's mail list.
  'shop-new-message': (d) => `${d.urgent ? 'URGENT: ' : ''}New message from ${d.fromName}: ${d.messageSubject}`,
};
