import type { MailTemplate } from './mailer.ts';

/** The subject line of each message, built from the same data as its body. */
export const subjects: { readonly [T in MailTemplate]: (data: Record<string, unknown>) => string } = {
  welcome: () => 'Welcome to Little Lantern Books',
  'temporary-password': () => 'Your temporary password',
  'reset-link': () => 'Reset your Little Lantern Books password',
  'password-changed': () => 'Your password was changed',
  'order-confirmation': (d) => `Your order #${String(d.orderId)} is confirmed`,
  'order-refunded': (d) => `About your order #${String(d.orderId)}: refunded`,
  'order-shipped': (d) => `Your order #${String(d.orderId)} is on its way`,
  'order-canceled': (d) => `Your order #${String(d.orderId)} was canceled and refunded`,
  'order-partial-refund': (d) => `A refund on your order #${String(d.orderId)}`,
  'contact-received': () => 'We received your message',
  'shop-new-order': (d) => `New order #${String(d.orderId)}: $${String(d.total)} from ${String(d.customerName)}`,
  // URGENT leads the line so it stands out in the publisher's mail list.
  'shop-new-message': (d) => `${d.urgent ? 'URGENT: ' : ''}New message from ${String(d.fromName)}: ${String(d.messageSubject)}`,
};

/** The data each template needs; enqueue refuses a request that lacks one (a programming error). */
export const requiredData: { readonly [T in MailTemplate]: readonly string[] } = {
  welcome: ['firstName'],
  'temporary-password': ['firstName', 'temporaryPassword', 'loginUrl', 'expiresInHours'],
  'reset-link': ['firstName', 'resetUrl', 'expiresInMinutes'],
  'password-changed': ['firstName', 'contactUrl'],
  'order-confirmation': [
    'firstName',
    'orderId',
    'items',
    'subtotal',
    'shipping',
    'handling',
    'tax',
    'total',
    'shippingAddress',
    'city',
    'zipCode',
    'orderUrl',
  ],
  'order-refunded': ['firstName', 'orderId', 'total', 'reason'],
  'order-shipped': ['firstName', 'orderId', 'carrier', 'trackingNumber', 'trackingLink', 'estimatedDelivery', 'orderUrl'],
  'order-canceled': ['firstName', 'orderId', 'refunded'],
  'order-partial-refund': ['firstName', 'orderId', 'amount', 'reason', 'refundedTotal'],
  'contact-received': ['firstName'],
  'shop-new-order': ['orderId', 'customerName', 'customerEmail', 'items', 'total', 'shippingAddress', 'city', 'zipCode', 'adminUrl'],
  'shop-new-message': ['fromName', 'fromEmail', 'member', 'messageSubject', 'message', 'urgent', 'inboxUrl'],
};
