import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelLinkTokens } from '../../../src/features/orders/cancel-link-token.ts';
import { formatUsd, toCents } from '../../../src/lib/money.ts';
import { buildTestShop, flushMail, formToken, startSession, type TestShop } from '../../helpers/app.ts';
import { createOperator, type Operator } from '../../helpers/operator.ts';
import { postForm } from '../../helpers/orders.ts';
import { copiesOf, placePaidPreorder, TODAY } from '../../helpers/preorders.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';

// The operator moves a title's publication date: every parent whose paid pre-order waits for it
// is emailed the new date, the day the order now ships and a one-click cancel-and-refund link
// to a page that needs no sign-in. Opening the link changes nothing; its button cancels and
// refunds in full; a forged or changed link is a 400 page. On SQLite and on MariaDB + Redis.
let sink: SmtpSink;
let shop: TestShop;
let operator: Operator;

beforeAll(async () => {
  sink = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: sink.url }, today: () => TODAY });
  operator = await createOperator(shop.db);
});
afterAll(async () => {
  await shop.close();
  await sink.close();
});

/** The operator's edit of the book form with a new publication date, every other field as it was. */
async function movePublication(bookId: number, publishedOn: string): Promise<void> {
  const { values } = await shop.services.bookAdmin.find(bookId);
  await shop.services.bookAdmin.update(bookId, { ...values, publishedOn }, operator.id);
}

const mailsTo = (email: string) => sink.received.filter((m) => m.rcptTo.includes(email));
const dateMoveMails = (email: string) => mailsTo(email).filter((m) => m.raw.includes('has a new date'));
const linkIn = (raw: string) => /https?:\/\/[^\s"<>]+\/preorders\/cancel\?token=([A-Za-z0-9._-]+)/.exec(raw);

describe('moving a publication date', () => {
  it('emails every parent waiting for the title, once each, with the new date, the new shipping day and the cancel link', async () => {
    const BOOK = 2;
    const first = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
    const second = await placePaidPreorder(shop, { bookId: BOOK, quantity: 2 });
    // The second also waits for a later title, so it ships on that one's day.
    await shop.db('books').where({ id: 3 }).update({ publishedOn: '2027-06-01', takesPreorders: true });
    await shop
      .db('orderItems')
      .insert({ orderId: second.orderId, bookId: 3, title: 'A later title', quantity: 1, price: '9.99', preorder: true });
    // Not waiting: a canceled pre-order of the title, and a pre-order released to To pack.
    const canceled = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
    await shop.db('orders').where({ id: canceled.orderId }).update({ status: 'canceled' });
    const released = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
    await shop.db('orders').where({ id: released.orderId }).update({ status: 'succeeded' });
    await flushMail(shop);

    await movePublication(BOOK, '2027-04-06');
    await flushMail(shop);

    const [toFirst] = dateMoveMails(first.buyer.parent.email);
    expect(dateMoveMails(first.buyer.parent.email)).toHaveLength(1);
    expect(toFirst!.raw).toContain(`about your pre-order #${first.orderId}`);
    expect(toFirst!.raw).toContain('will now be out on April 6, 2027 instead of March 2, 2027');
    expect(toFirst!.raw).toContain('Pre-ordered: we will send it as soon as it is out on April 6, 2027.');
    const token = linkIn(toFirst!.raw)?.[1];
    expect(cancelLinkTokens(shop.config.SESSION_SECRET).verify(token ?? '')).toEqual({
      orderId: first.orderId,
      userId: (await shop.db('users').where({ email: first.buyer.parent.email }).first()).id,
    });

    const [toSecond] = dateMoveMails(second.buyer.parent.email);
    expect(dateMoveMails(second.buyer.parent.email)).toHaveLength(1);
    expect(toSecond!.raw).toContain('will now be out on April 6, 2027');
    expect(toSecond!.raw).toContain('Pre-ordered: we will send it as soon as it is out on June 1, 2027.');

    expect(dateMoveMails(canceled.buyer.parent.email)).toHaveLength(0);
    expect(dateMoveMails(released.buyer.parent.email)).toHaveLength(0);
    // On each order's timeline, as every email about an order is.
    expect(await shop.db('outbox').where({ orderId: first.orderId }).where('subject', 'like', '%has a new date%')).toHaveLength(1);

    // Saving the form again without moving the date tells nobody anything.
    await movePublication(BOOK, '2027-04-06');
    await flushMail(shop);
    expect(dateMoveMails(first.buyer.parent.email)).toHaveLength(1);
  });

  it('tells nobody when the edit is refused and rolled back', async () => {
    const BOOK = 4;
    const waiting = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
    const { values } = await shop.services.bookAdmin.find(BOOK);
    // Another book has the ISBN typed: the database refuses the edit, and its transaction is undone.
    await shop.db('books').where({ id: 1 }).update({ isbn: '9780000000002' });
    await expect(
      shop.services.bookAdmin.update(BOOK, { ...values, publishedOn: '2027-05-05', isbn: '9780000000002' }, operator.id),
    ).rejects.toThrow('Another book already has this ISBN.');
    await flushMail(shop);
    expect(dateMoveMails(waiting.buyer.parent.email)).toHaveLength(0);
    expect(await shop.db('outbox').where({ orderId: waiting.orderId }).where('subject', 'like', '%has a new date%')).toHaveLength(0);
  });
});

describe('the one-click cancel link', () => {
  async function linkedPreorder(bookId: number) {
    const placed = await placePaidPreorder(shop, { bookId, quantity: 2 });
    await movePublication(bookId, '2027-07-13');
    await flushMail(shop);
    const raw = dateMoveMails(placed.buyer.parent.email).at(-1)!.raw;
    const [url, token] = linkIn(raw)!;
    return { ...placed, path: new URL(url).pathname + new URL(url).search, token: token! };
  }

  async function stateOf(orderId: number, paymentIntentId: string, bookId: number) {
    const order = await shop.db('orders').where({ id: orderId }).first();
    return {
      status: order.status as string,
      refunded: String(order.refundedAmount),
      providerRefunds: (await shop.db('sandboxRefunds').where({ paymentIntentId })).map((r) => Number(r.amountCents)),
      refunds: (await shop.db('refunds').where({ orderId })).length,
      copies: await copiesOf(shop, bookId),
    };
  }

  it('opens without sign-in and changes nothing; its button cancels and refunds in full, then the page says so', async () => {
    const BOOK = 5;
    const before = await copiesOf(shop, BOOK);
    const { orderId, paymentIntentId, total, path, token, buyer } = await linkedPreorder(BOOK);
    const visitor = shop.browser();

    const page = await visitor.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Order #${orderId}`);
    expect(page.text).toContain('Pre-ordered: we will send it as soon as it is out on July 13, 2027.');
    expect(page.text).toContain('Pre-order &middot; out July 13, 2027');
    expect(page.text).toContain(`We will refund <strong>${formatUsd(toCents(total))}</strong>`);
    expect(page.text).toContain('>Cancel and refund</button>');
    expect((await stateOf(orderId, paymentIntentId, BOOK)).status).toBe('preordered');

    // Pressed twice at once (a double click): refunded once, and both answers say it is done.
    const key = /name="requestKey" value="([^"]+)"/.exec(page.text)![1]!;
    const answers = await Promise.all(
      [1, 2].map(() => postForm(visitor, '/preorders/cancel', { _csrf: formToken(page.text), token, requestKey: key })),
    );
    for (const done of answers) {
      expect(done.status, done.text.slice(0, 300)).toBe(303);
      expect(done.headers.location).toBe(path);
    }
    const after = await stateOf(orderId, paymentIntentId, BOOK);
    expect(after).toMatchObject({ status: 'canceled', providerRefunds: [toCents(total)], refunds: 1, copies: before });
    expect(toCents(after.refunded)).toBe(toCents(total));

    const confirmed = await visitor.get(path);
    expect(confirmed.text).toContain(`Pre-order #${orderId} canceled`);
    expect(confirmed.text).toContain(`Order #${orderId} was canceled and ${formatUsd(toCents(total))} was refunded to your card.`);
    expect(confirmed.text).not.toContain('>Cancel and refund</button>');

    await flushMail(shop);
    expect(
      mailsTo(buyer.parent.email).filter((m) => m.raw.includes(`Subject: Your order #${orderId} was canceled and refunded`)),
    ).toHaveLength(1);
    const entry = await shop.db('auditLog').where({ orderId, action: 'canceled' }).first();
    expect(JSON.parse(entry.afterJson)).toMatchObject({ by: 'parent' });
  });

  it('refuses an order packed for shipping since the email, beside where the button was, changing nothing', async () => {
    const BOOK = 6;
    const { orderId, paymentIntentId, path, token } = await linkedPreorder(BOOK);
    const visitor = shop.browser();
    const page = await visitor.get(path);
    const key = /name="requestKey" value="([^"]+)"/.exec(page.text)![1]!;
    await shop.db('orders').where({ id: orderId }).update({ status: 'succeeded' });
    const before = await stateOf(orderId, paymentIntentId, BOOK);
    const packed = 'This order has already been packed for shipping, so it can no longer be canceled here. Please contact us.';

    const refused = await postForm(visitor, '/preorders/cancel', { _csrf: formToken(page.text), token, requestKey: key });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('The pre-order was not canceled');
    expect(refused.text).toContain(packed);
    expect(refused.text).not.toContain('>Cancel and refund</button>');
    expect(await stateOf(orderId, paymentIntentId, BOOK)).toEqual(before);

    // Opened again, the page says the same and offers no button.
    const reopened = await visitor.get(path);
    expect(reopened.text).toContain(packed);
    expect(reopened.text).not.toContain('>Cancel and refund</button>');
  });

  it('answers a forged or changed link with a 400 page, changing nothing', async () => {
    const BOOK = 7;
    const { orderId, paymentIntentId, token } = await linkedPreorder(BOOK);
    const other = await placePaidPreorder(shop, { bookId: BOOK, quantity: 1 });
    const visitor = shop.browser();
    // A visitor with a session, so every post below carries the same form token.
    await startSession(visitor);
    const page = await visitor.get(`/preorders/cancel?token=${token}`);
    const csrf = formToken(page.text);
    const key = /name="requestKey" value="([^"]+)"/.exec(page.text)![1]!;
    const [id, user, signature] = token.split('.');
    const flipped = signature!.startsWith('A') ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    const before = await stateOf(orderId, paymentIntentId, BOOK);
    const otherBefore = await stateOf(other.orderId, other.paymentIntentId, BOOK);

    for (const bad of [
      `${other.orderId}.${user}.${signature}`, // another order under this order's signature
      `${id}.${user}.${flipped}`,
      `${id}.${user}`,
      `${id}.${user}.${signature}.x`,
      'not-a-token',
      cancelLinkTokens('another-secret-another-secret-0123456789').sign({ orderId, userId: Number(user) }),
    ]) {
      const opened = await visitor.get(`/preorders/cancel?token=${encodeURIComponent(bad)}`);
      expect(opened.status, bad).toBe(400);
      expect(opened.text).toContain('This link is not complete or has been changed.');
      const posted = await postForm(visitor, '/preorders/cancel', { _csrf: csrf, token: bad, requestKey: key });
      expect(posted.status, bad).toBe(400);
    }
    expect((await visitor.get('/preorders/cancel')).status).toBe(400);
    expect(await stateOf(orderId, paymentIntentId, BOOK)).toEqual(before);
    expect(await stateOf(other.orderId, other.paymentIntentId, BOOK)).toEqual(otherBefore);
  });
});
