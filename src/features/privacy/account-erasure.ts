import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import { inboxOf } from '../../lib/email.ts';
import type { Logger } from '../../log.ts';
import { writeAudit } from '../../models/AuditEntry.ts';
import { User } from '../../models/User.ts';
import { UNSETTLED_STATUSES } from '../../models/Checkout.ts';
import { Conflict, NotFound } from '../../web/errors.ts';
import { lockForSale } from '../checkout/lock-order.ts';
import { retryOnLockConflict } from '../../lib/lock-retry.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { contactMessagesOf, sameInboxDomains } from './personal-data.ts';
import { PRIVACY_MESSAGES as M } from './privacy.messages.ts';

/** Orders whose parcel has not left yet: the parent is still owed something, so the account stays. */
export const OPEN_ORDER_STATUSES = ['pending', 'processing', 'succeeded', 'preordered'];

export interface Erasure {
  /** The account that was erased: its sessions are ended by the caller, who holds the session store. */
  userId: number;
  ordersKept: number;
}

/**
 * Erases an account (docs/architecture.md, "Your data"): the person goes, the sales stay. In
 * one transaction, under the account's row lock (the first lock of the lock order, so no
 * payment can start or finish for it meanwhile): the account, its saved address, carts,
 * sign-in links and recovery codes, its back-in-stock requests and contact messages, and the
 * mail about them are deleted; its orders and checkouts lose the name, email, street, city and
 * gift words, and keep the books, amounts, date, state and ZIP code. The audit log records the
 * erasure without the person, and the goodbye email is deleted from the outbox once sent.
 */
export function createAccountErasure({ db, mailer, payments, log }: { db: Db; mailer: Mailer; payments: PaymentProvider; log: Logger }) {
  return {
    /** Refuses (409) an account with an order or a payment still open, and an operator's. */
    async erase(userId: number, { by }: { by: { operatorId: number } | 'parent' }): Promise<Erasure> {
      // Erasures at once check the same foreign keys (a user row's audit entries): a deadlock is retried.
      const { erasure, paymentCustomerId } = await retryOnLockConflict(() =>
        db.transaction(async (trx) => {
          await lockForSale(trx, { userId });
          const user = await User.query(trx).findById(userId);
          if (!user) throw new NotFound(M.noAccount);
          if (user.role !== 'customer') throw new Conflict(M.operatorAccount);
          if (await trx('orders').where({ userId }).whereIn('status', OPEN_ORDER_STATUSES).first('id')) throw new Conflict(M.openOrder);
          if (await trx('checkouts').where({ userId }).whereIn('status', UNSETTLED_STATUSES).first('id')) throw new Conflict(M.openPayment);

          const orderIds = (await trx('orders').where({ userId }).orderBy('id').select<Array<{ id: number }>>('id')).map((o) =>
            Number(o.id),
          );
          await forgetPerson(trx, user, orderIds);
          await writeAudit(trx, {
            actorId: by === 'parent' ? null : by.operatorId,
            action: 'account.erased',
            before: null,
            after: {
              account: userId,
              ordersKept: orderIds,
              askedBy: by === 'parent' ? 'the parent, from their dashboard' : 'the parent, by writing in',
            },
          });
          await mailer.enqueue(trx, {
            to: user.email,
            template: 'account-deleted',
            data: { firstName: user.firstName, ordersKept: orderIds.length },
            forgetAfterSend: true,
          });
          return { erasure: { userId, ordersKept: orderIds.length }, paymentCustomerId: user.paymentCustomerId };
        }),
      );
      mailer.kick();
      // The payment provider's copy of the name and email: asked after the commit, never while holding locks.
      if (paymentCustomerId)
        await payments.forgetCustomer(paymentCustomerId).catch((err: unknown) => {
          log.error(
            { err, account: userId, customer: paymentCustomerId },
            'erasure: the payment provider did not delete its customer record; delete it by hand',
          );
        });
      return erasure;
    },
  };
}

export type AccountErasure = ReturnType<typeof createAccountErasure>;

async function forgetPerson(trx: Knex.Transaction, user: User, orderIds: number[]): Promise<void> {
  const userId = user.id;
  const inbox = inboxOf(user.email);
  const messages = await contactMessagesOf(trx, user.email);
  const messageIds = messages.map((m) => m.id);

  // Kept for tax and accounting, without the person: the state and ZIP stay for the sales-tax report.
  const withoutPerson = { userId: null, shippingAddress: '', city: '', giftNote: null, giftRecipient: null };
  await trx('orders').where({ userId }).update(withoutPerson);
  await trx('checkouts')
    .where({ userId })
    .update({ ...withoutPerson, clientKey: null });

  // Mail about the person: to their inbox, about their orders, or quoting their messages.
  const spellings = [...new Set([user.email, ...messages.map((m) => m.email)])];
  const mailIds = (
    await trx('outbox')
      .where((where) => {
        for (const domain of sameInboxDomains(inbox)) where.orWhereRaw('lower(to_address) like ?', [`%@${domain}`]);
        if (orderIds.length) where.orWhereIn('orderId', orderIds);
        for (const spelling of spellings) where.orWhere('textBody', 'like', `%${spelling}%`);
      })
      .select<Array<{ id: number; toAddress: string; orderId: number | null; textBody: string }>>('id', 'toAddress', 'orderId', 'textBody')
  )
    .filter(
      (mail) =>
        inboxOf(mail.toAddress) === inbox ||
        (mail.orderId !== null && orderIds.includes(Number(mail.orderId))) ||
        spellings.some((spelling) => mail.textBody.includes(spelling)),
    )
    .map((mail) => mail.id);
  await deleteIn(trx, 'outbox', mailIds);

  if (messageIds.length) await trx('auditLog').whereIn('contactMessageId', messageIds).update({ contactMessageId: null });
  await deleteIn(trx, 'contactMessages', messageIds);
  await trx('backInStockRequests').where({ inbox }).delete();
  await trx('carts').where({ userId }).delete();
  await trx('accountTokens').where({ userId }).delete();
  await trx('recoveryCodes').where({ userId }).delete();
  await trx('users').where({ id: userId }).delete();
}

async function deleteIn(trx: Knex.Transaction, table: string, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500)
    await trx(table)
      .whereIn('id', ids.slice(i, i + 500))
      .delete();
}
