import type { Db } from '../../db.ts';
import { inboxOf } from '../../lib/email.ts';
import { toDecimal } from '../../lib/money.ts';
import { ContactMessage } from '../../models/ContactMessage.ts';
import { Order } from '../../models/Order.ts';
import { Refund } from '../../models/Refund.ts';
import { User } from '../../models/User.ts';
import { displayStatus, statusLabel } from '../orders/order-status.ts';
import { NotFound } from '../../web/errors.ts';

/**
 * Everything the shop holds about one parent, as one JSON document they can read and take
 * elsewhere (docs/architecture.md, "Your data"). Never a secret: no password hash, two-step
 * secret, token or payment-provider id; never another person's record.
 */
export async function personalData(db: Db, userId: number, { sessionDays, now = new Date() }: { sessionDays: number; now?: Date }) {
  const user = await User.query(db).findById(userId);
  if (!user) throw new NotFound('Account not found');
  const inbox = inboxOf(user.email);
  const [orders, cart, messages, waiting, links] = await Promise.all([
    Order.query(db).where({ userId }).withGraphFetched('items').orderBy('id'),
    db('cartItems')
      .join('carts', 'carts.id', 'cartItems.cartId')
      .join('books', 'books.id', 'cartItems.bookId')
      .where('carts.userId', userId)
      .orderBy('cartItems.id')
      .select<Array<{ title: string; quantity: number; updatedAt: Date }>>('books.title', 'cartItems.quantity', 'cartItems.updatedAt'),
    contactMessagesOf(db, user.email),
    db('backInStockRequests')
      .join('books', 'books.id', 'backInStockRequests.bookId')
      .where('backInStockRequests.inbox', inbox)
      .orderBy('backInStockRequests.id')
      .select<Array<{ title: string; email: string }>>('books.title', 'backInStockRequests.email'),
    db('accountTokens')
      .where({ userId })
      .orderBy('id')
      .select<Array<{ purpose: string; createdAt: Date; expiresAt: Date; usedAt: Date | null }>>(
        'purpose',
        'createdAt',
        'expiresAt',
        'usedAt',
      ),
  ]);
  const refunds = orders.length
    ? await Refund.query(db)
        .whereIn(
          'orderId',
          orders.map((o) => o.id),
        )
        .orderBy('id')
    : [];

  return {
    about:
      'Everything Little Lantern Books holds about you, as of the date below. Orders are kept for tax and accounting even if you delete your account, without your name, email address or street.',
    exportedAt: now.toISOString(),
    account: {
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      createdAt: iso(user.createdAt),
      twoStepSignIn: user.totpEnrolledAt ? { setUpAt: iso(user.totpEnrolledAt) } : null,
    },
    savedAddress: user.savedAddress ? { address: user.savedAddress, city: user.savedCity, zipCode: user.savedZipCode } : null,
    orders: orders.map((order) => {
      const status = displayStatus(order.status);
      return {
        number: order.id,
        placedAt: iso(order.createdAt),
        status: statusLabel(status, { totalCents: order.totalAmount, refundedCents: order.refundedAmount }),
        books: (order.items ?? []).map((item) => ({
          title: item.title,
          quantity: item.quantity,
          price: toDecimal(item.price),
          preorder: Boolean(item.preorder),
        })),
        subtotal: toDecimal(order.subtotal),
        discountCode: order.discountCode,
        discount: toDecimal(order.discount),
        shipping: toDecimal(order.shipping),
        handling: toDecimal(order.handling),
        tax: toDecimal(order.tax),
        total: toDecimal(order.totalAmount),
        shipTo: { address: order.shippingAddress, city: order.city, state: order.state, zipCode: order.zipCode },
        gift: order.giftNote || order.giftRecipient ? { recipient: order.giftRecipient, note: order.giftNote } : null,
        delivery: {
          carrier: order.carrier,
          trackingNumber: order.trackingNumber,
          estimatedDelivery: order.estimatedDelivery,
          shippedAt: iso(order.shippedAt),
          deliveredAt: iso(order.deliveredAt),
          canceledAt: iso(order.canceledAt),
        },
        payment: { reference: order.stripePaymentIntentId, paid: toDecimal(order.totalAmount), refunded: toDecimal(order.refundedAmount) },
        refunds: refunds
          .filter((refund) => refund.orderId === order.id)
          .map((refund) => ({
            amount: toDecimal(refund.amount),
            status: refund.status,
            requestedAt: iso(refund.createdAt),
            settledAt: iso(refund.settledAt),
          })),
      };
    }),
    cart: cart.map((line) => ({ title: line.title, quantity: Number(line.quantity) })),
    contactMessages: messages.map((message) => ({
      sentAt: iso(message.createdAt),
      firstName: message.firstName,
      lastName: message.lastName,
      email: message.email,
      subject: message.subject,
      message: message.description,
      currentMember: Boolean(message.currentMember),
    })),
    backInStockRequests: waiting.map((request) => ({ book: request.title, email: request.email })),
    signIn: {
      history: `The shop keeps no record of when or where you signed in. Your browser holds a session cookie while you are signed in; it ends when you sign out or after ${sessionDays} days.`,
      securityEmails: links.map((link) => ({
        kind: link.purpose === 'reset-link' ? 'password reset link' : 'temporary password',
        sentAt: iso(link.createdAt),
        expiresAt: iso(link.expiresAt),
        usedAt: iso(link.usedAt),
      })),
      lastResetLinkSentAt: iso(user.resetLinkSentAt),
      temporaryPasswordSentAt: iso(user.temporaryPasswordSentAt),
    },
    consents: {
      email:
        'The shop emails you about your account and your orders, and about a book you asked to hear about (back-in-stock requests above); it sends no marketing.',
      backInStock: waiting.map((request) => request.title),
      cookies: 'Essential only: the session cookie that keeps you signed in and holds your cart.',
    },
  };
}

export type PersonalData = Awaited<ReturnType<typeof personalData>>;

/** The contact messages sent from the account's inbox, in any spelling of the address. */
export async function contactMessagesOf(db: Db, email: string): Promise<ContactMessage[]> {
  const inbox = inboxOf(email);
  const domains = sameInboxDomains(inbox);
  const candidates = await ContactMessage.query(db)
    .where((where) => {
      for (const domain of domains) where.orWhereRaw('lower(email) like ?', [`%@${domain}`]);
    })
    .orderBy('id');
  return candidates.filter((message) => inboxOf(message.email) === inbox);
}

/** The domains whose addresses may reach this inbox (Gmail answers at two). */
export function sameInboxDomains(inbox: string): string[] {
  const domain = inbox.slice(inbox.lastIndexOf('@') + 1);
  return domain === 'gmail.com' ? ['gmail.com', 'googlemail.com'] : [domain];
}

function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
