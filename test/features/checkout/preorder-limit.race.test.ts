import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { countsOf, makeForthcoming } from '../../helpers/preorder-titles.ts';
import {
  addressInBlock,
  parentsArriving,
  pressPayAtOnce,
  tally,
  unreadable,
  type Answer,
  type SaleParent,
} from '../../helpers/sale-day-parent.ts';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { CHECKOUT_MESSAGES } from '../../../src/features/checkout/checkout.service.ts';
import { RACE_TARGETS } from '../../helpers/race-targets.ts';

// The last copies of a first print run: two hundred parents press Pay at the same moment for
// the last five pre-order copies of a title, as real parallel requests to a listening shop.
// On MariaDB each start runs on its own connection and they race for the same book row, in
// this process and again across the two worker processes production runs; on SQLite they
// queue for the one writer. Whatever the timing, exactly five are taken, the pre-order limit
// is never passed, and every other parent is told, in words about pre-orders, that the copies
// are gone. The same holds for copies on a shelf that are owed to pre-orders not yet served.

const PARENTS = 200;
const TITLE = 3;
const LIMIT = 120;
const LEFT = 5;
/** On the shelf, with copies still owed to pre-orders: only the rest are for sale. */
const SHELF_TITLE = 6;
const SHELF = 30;
const OWED = 25;

const BRIEFLY_UNAVAILABLE = 'The shop is briefly unavailable. Please try again in a few seconds.';
/** What each answer that asks the parent to press Pay again says. */
const TRY_AGAIN: Record<number, string> = { 429: CHECKOUT_MESSAGES.busy, 503: BRIEFLY_UNAVAILABLE };

/**
 * A parent asked to try again in a moment presses Pay again, as the message asks, until the
 * shop gives an answer: 429 when more parents press Pay than the shop starts at once, or 503
 * when a machine this loaded waits too long for the session store.
 */
async function untilAnswered(buyers: SaleParent[], answers: Answer[]): Promise<Answer[]> {
  const final = [...answers];
  for (let round = 0; round < 20; round++) {
    const waiting = final.flatMap((a, i) => (a.status in TRY_AGAIN ? [i] : []));
    if (!waiting.length) break;
    for (const i of waiting) expect(final[i]!.body.message).toBe(TRY_AGAIN[final[i]!.status]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = await Promise.all(waiting.map((i) => buyers[i]!.startPayment()));
    waiting.forEach((i, k) => (final[i] = again[k]!));
  }
  return final;
}

describe.each(RACE_TARGETS)('the last pre-order copies, $name', (target) => {
  let shop: TestShop;
  let server: { url: string; stop(): Promise<void> };
  let parents: SaleParent[];
  let title: string;

  beforeAll(async () => {
    // Through one trusted proxy, so each parent comes from an address of their own.
    shop = await buildTestShop({ env: { TRUST_PROXY: '1' } });
    await makeForthcoming(shop, TITLE, { limit: LIMIT, preordered: LIMIT - LEFT, price: '12.00' });
    await shop
      .db('books')
      .where({ id: SHELF_TITLE })
      .update({ inStock: SHELF, preordered: OWED, takesPreorders: false, publishedOn: '2025-01-01' });
    await bumpCatalogueVersion(shop.db);
    title = (await shop.db('books').where({ id: TITLE }).first('title')).title as string;
    server = await target.start(shop);
    parents = await parentsArriving(server.url, PARENTS, addressInBlock(1));
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await shop?.close();
  });

  async function sum(table: string, bookId: number, where: Record<string, unknown> = {}): Promise<number> {
    const row = (await shop
      .db(table)
      .where({ bookId, ...where })
      .sum({ n: 'quantity' })
      .first()) as { n: number | string | null };
    return Number(row.n ?? 0);
  }

  it('two hundred parents for the last five: five orders, the limit reached and never passed, the rest told why', async () => {
    // Every cart takes the copy: a cart holds nothing, the payment does.
    for (let i = 0; i < PARENTS; i += 20) await Promise.all(parents.slice(i, i + 20).map((p) => p.add(TITLE, 1)));

    const pressed = await pressPayAtOnce(parents);
    console.info(
      `${target.name}, 200 parents for ${LEFT} pre-order copies: ${JSON.stringify(tally(pressed.answers))} in ${Math.round(pressed.slowestMs)} ms`,
    );
    expect(unreadable(pressed.answers).filter((a) => a.status !== 503)).toEqual([]);
    const answers = await untilAnswered(parents, pressed.answers);
    const lucky = parents.filter((_, i) => answers[i]!.status === 200);
    expect(lucky).toHaveLength(LEFT);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect([refused.status, refused.body.message]).toEqual([409, CHECKOUT_MESSAGES.preordersGone(title)]);
    expect(await countsOf(shop, TITLE)).toEqual({ inStock: 0, preordered: LIMIT });
    expect(await sum('stockHolds', TITLE, { preorder: true })).toBe(LEFT);

    expect(await Promise.all(lucky.map((p) => p.payAndComplete()))).not.toContain(false);
    const orders = await shop.db('orders').join('orderItems', 'orderItems.orderId', 'orders.id').where('orderItems.bookId', TITLE);
    expect(orders).toHaveLength(LEFT);
    expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['preordered']));
    expect(await sum('orderItems', TITLE, { preorder: true })).toBe(LEFT);
    expect(await sum('stockHolds', TITLE)).toBe(0);
    expect(await countsOf(shop, TITLE)).toEqual({ inStock: 0, preordered: LIMIT });
  }, 300_000);

  it('copies on the shelf owed to pre-orders are never sold to others, however many pay at once', async () => {
    const buyers = parents.slice(0, 50);
    await Promise.all(buyers.map((p) => p.send('DELETE', '/api/cart')));
    // The carts are filled while the copies beyond the owed ones are there to add.
    await Promise.all(buyers.map((p) => p.add(SHELF_TITLE, 1)));
    const pressed = await pressPayAtOnce(buyers);
    expect(unreadable(pressed.answers).filter((a) => a.status !== 503)).toEqual([]);
    const answers = await untilAnswered(buyers, pressed.answers);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(SHELF - OWED);
    for (const refused of answers.filter((a) => a.status !== 200)) expect(refused.status).toBe(409);
    expect(await countsOf(shop, SHELF_TITLE)).toEqual({ inStock: OWED, preordered: OWED });
  }, 300_000);
});
