import type { Db } from '../../../db.ts';
import type { Logger } from '../../../log.ts';
import { toDate } from '../../../lib/dates.ts';
import { formatUsd, toDecimal } from '../../../lib/money.ts';
import { AuditEntry } from '../../../models/AuditEntry.ts';
import { Order } from '../../../models/Order.ts';
import { Refund } from '../../../models/Refund.ts';
import { User } from '../../../models/User.ts';
import { NotFound } from '../../../web/errors.ts';
import type { PaymentProvider } from '../../payments/provider.ts';
import { toOrderDto } from '../../orders/order.dto.ts';
import { displayStatus, statusBadge, statusLabel, type OrderMoney } from '../../orders/order-status.ts';
import { orderTimeline } from './order-timeline.ts';

// What the operator's order page shows, read in one place. The provider is asked for the
// payment's status with a short timeout: a slow or failing provider must not hold the page.

export const PROVIDER_TIMEOUT_MS = 3_000;

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
export const dateTime = (d: Date) => `${dateTimeFormat.format(d)} UTC`;

/**
 * The payment as the provider holds it, in the words of the order's badge (statusLabel). A
 * refund does not change a payment's status at the provider (Stripe's stays 'succeeded'), so
 * money given back is told from the order's refunded total, with how much when it is a part.
 */
export function providerStatusText(paymentStatus: string, money: OrderMoney): string {
  if (paymentStatus === 'stripe_error') return 'unavailable';
  if (paymentStatus === 'no_payment_intent') return 'No payment on record';
  const label = statusLabel(paymentStatus, money);
  return label === 'Partly refunded' ? `${label} (${formatUsd(money.refundedCents)} of ${formatUsd(money.totalCents)})` : label;
}

export function createOrderDetails({ db, payments, log: shopLog }: { db: Db; payments: PaymentProvider; log: Logger }) {
  async function providerStatus(order: { id: number; stripePaymentIntentId: string | null }, log: Logger): Promise<string> {
    const paymentIntentId = order.stripePaymentIntentId;
    if (!paymentIntentId) return 'no_payment_intent';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`No answer within ${PROVIDER_TIMEOUT_MS / 1000} seconds.`)), PROVIDER_TIMEOUT_MS);
    });
    try {
      return (await Promise.race([payments.retrievePaymentIntent(paymentIntentId), timeout])).status;
    } catch (err) {
      // The page still shows the order, its payment status 'unavailable' (providerStatusText); the log says why.
      log.error({ err, orderId: order.id, paymentIntentId }, 'could not ask the payment provider for an order’s status');
      return 'stripe_error';
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** The order page's facts; `log` is the request's, so a failure to ask the provider carries its id. */
    async load(orderId: number, log: Logger = shopLog) {
      const order = await Order.query(db).findById(orderId).withGraphFetched('items.book');
      if (!order) throw new NotFound('Order not found');
      const [customer, refunds, emails, audit, paymentStatus] = await Promise.all([
        order.userId === null ? undefined : User.query(db).findById(order.userId),
        Refund.query(db).where({ orderId }).orderBy('id'),
        db('outbox').where({ orderId }).select('id', 'subject', 'toAddress', 'createdAt', 'sentAt').orderBy('id'),
        AuditEntry.query(db)
          .leftJoin('users', 'users.id', 'auditLog.actorId')
          .where('auditLog.orderId', orderId)
          .select(
            'auditLog.id',
            'auditLog.actorId',
            'auditLog.action',
            'auditLog.afterJson',
            'auditLog.createdAt',
            'users.firstName',
            'users.lastName',
            'users.email',
          )
          .castTo<Array<AuditEntry & { firstName: string | null; lastName: string | null; email: string | null }>>(),
        providerStatus(order, log),
      ]);
      const customerName = customer ? `${customer.firstName} ${customer.lastName}`.trim() : 'Deleted account';
      const reserved = refunds.filter((r) => r.status === 'pending').reduce((sum, r) => sum + r.amount, 0);
      const leftCents = order.totalAmount - order.refundedAmount - reserved;
      const status = displayStatus(order.status, paymentStatus);
      const pendingCancel = refunds.find((r) => r.status === 'pending' && r.requestKey.startsWith('cancel:'));
      return {
        order: toOrderDto(order),
        orderStatus: order.status,
        status: statusBadge(status, { totalCents: order.totalAmount, refundedCents: order.refundedAmount }),
        customer: { name: customerName, email: customer?.email ?? '' },
        payment: {
          providerId: order.stripePaymentIntentId,
          providerStatus: providerStatusText(paymentStatus, { totalCents: order.totalAmount, refundedCents: order.refundedAmount }),
          amount: formatUsd(order.totalAmount),
          refunded: formatUsd(order.refundedAmount),
          pending: reserved > 0 ? formatUsd(reserved) : null,
        },
        // A cancel left in progress is finished, not repeated: its amount is what it gives back.
        cancelAmount: formatUsd(pendingCancel ? pendingCancel.amount : Math.max(leftCents, 0)),
        left: { cents: leftCents, usd: formatUsd(Math.max(leftCents, 0)), decimal: toDecimal(Math.max(leftCents, 0)) },
        refunds: refunds.map((r) => ({ id: r.id, amount: formatUsd(r.amount), reason: r.reason, status: r.status, error: r.error })),
        timeline: orderTimeline(
          {
            order,
            customerName,
            // The outbox has no model: its instants are converted here, as a model would.
            emails: emails.map(
              (e: {
                id: number;
                subject: string;
                toAddress: string;
                createdAt: Date | string | number;
                sentAt: Date | string | number | null;
              }) => ({
                ...e,
                createdAt: toDate(e.createdAt),
                sentAt: e.sentAt === null ? null : toDate(e.sentAt),
              }),
            ),
            audit: audit.map((a) => ({
              id: a.id,
              action: a.action,
              afterJson: a.afterJson,
              createdAt: a.createdAt,
              // No actor: the shop moved it itself (a pre-order on publication day).
              actorName:
                a.actorId === null ? 'The shop' : a.firstName ? `${a.firstName} ${a.lastName ?? ''}`.trim() : (a.email ?? 'An operator'),
            })),
          },
          dateTime,
        ).map((event) => ({ ...event, when: dateTime(event.at), iso: event.at.toISOString() })),
      };
    },
  };
}

export type OrderDetails = ReturnType<typeof createOrderDetails>;
export type OrderView = Awaited<ReturnType<OrderDetails['load']>>;
