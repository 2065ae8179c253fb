import type { Knex } from 'knex';
import { longDate } from '../../lib/dates.ts';
import { Book } from '../../models/Book.ts';
import { Order } from '../../models/Order.ts';
import { User } from '../../models/User.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { CancelLink } from './cancel-link-token.ts';
import { orderStory } from './order-story.ts';
import { shipsOnIn } from './preorder-facts.ts';

// When the operator moves a title's publication date, every parent waiting for it in a paid
// pre-order hears of it from the same transaction as the edit: the new date, the day their
// order now ships (it waits for its latest title), and a one-click cancel-and-refund link.
// The operator's edit sends these, so no per-recipient cap applies: one email per waiting
// order and date move, to parents who paid.

export interface PublicationMoves {
  /**
   * Inside the edit's transaction, after the new date is written: queues the emails, which go
   * out once it commits. Sends nothing when the date did not change. Returns the orders told.
   */
  publicationMoved(trx: Knex.Transaction, move: { bookId: number; from: string; to: string }): Promise<number>;
}

export function createPreorderNotices({
  mailer,
  cancelLink,
  publicUrl,
}: {
  mailer: Mailer;
  cancelLink: (link: CancelLink) => string;
  publicUrl: string;
}): PublicationMoves {
  return {
    async publicationMoved(trx, { bookId, from, to }) {
      if (from === to) return 0;
      const book = await Book.query(trx).findById(bookId);
      if (!book) return 0;
      const waiting = await Order.query(trx)
        .where('status', 'preordered')
        .whereExists(Order.relatedQuery('items').where({ bookId, preorder: true }))
        .orderBy('id');
      for (const order of waiting) {
        if (order.userId === null) continue;
        const customer = await User.query(trx).findById(order.userId);
        if (!customer) continue;
        await mailer.enqueue(trx, {
          to: customer.email,
          template: 'preorder-date-moved',
          data: {
            firstName: customer.firstName,
            orderId: order.id,
            title: book.title,
            previousDate: longDate(from),
            newDate: longDate(to),
            story: orderStory({ id: order.id, status: 'preordered', shipsOn: await shipsOnIn(trx, order.id) }),
            orderUrl: `${publicUrl}/order-confirmation?orderId=${order.id}`,
            cancelUrl: cancelLink({ orderId: order.id, userId: order.userId }),
          },
          orderId: order.id,
        });
      }
      // Sent once the edit is committed, not before: a rolled-back edit told nobody anything.
      if (waiting.length)
        void trx.executionPromise.then(
          () => mailer.kick(),
          () => {},
        );
      return waiting.length;
    },
  };
}
