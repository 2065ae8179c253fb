import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { addCode, codeRow, priceBook } from '../../helpers/discounts.ts';
import {
  addressInBlock,
  parentsArriving,
  pressPayAtOnce,
  tally,
  unreadable,
  type Answer,
  type SaleParent,
} from '../../helpers/sale-day-parent.ts';
import { CHECKOUT_MESSAGES, MAX_OPEN_CHECKOUTS_PER_ADDRESS } from '../../../src/features/checkout/checkout.service.ts';
import { MAX_COPIES_PER_TITLE } from '../../../src/features/catalog/per-title-limit.ts';
import { DISCOUNT_MESSAGES } from '../../../src/features/discounts/discount.rules.ts';
import { RACE_TARGETS } from '../../helpers/race-targets.ts';

// Sale day: parents pay for the same books at the same moment, as real parallel requests to a
// listening shop. On MariaDB each request runs on its own connection and they race for the
// same checkout, code and book rows, in this process and again across the two worker
// processes production runs; on SQLite they queue for the one writer. Whatever the timing,
// every start answers with an intent or a reason, no intent is left behind by a start that
// failed, the limits count parallel starts like sequential ones, and no copy or code use is
// lost or counted twice.

const PARENTS = 50;
const TITLES = [2, 3];
const STOCK = 2000;
const CODE = 'SALE-DAY';
const CODE_USES = 30;

describe.each(RACE_TARGETS)('sale day, $name', (target) => {
  let shop: TestShop;
  let server: { url: string; stop(): Promise<void> };
  let parents: SaleParent[];
  let block = 0;
  /** Parents signed up from addresses no one else used. */
  const arriving = (count: number) => parentsArriving(server.url, count, addressInBlock((block += 1)));

  beforeAll(async () => {
    // Through one trusted proxy, so each parent can come from an address of their own.
    shop = await buildTestShop({ env: { TRUST_PROXY: '1' } });
    for (const id of TITLES) await priceBook(shop, id, '12.00', STOCK);
    await addCode(shop, { code: CODE, kind: 'fixed', amount: 2_00, maxUses: CODE_USES });
    server = await target.start(shop);
    parents = await arriving(PARENTS);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await shop?.close();
  });

  /** Half the parents put the titles in the cart the other way round: the lock order must not care. */
  async function fillCart(parent: SaleParent, i: number, copies = 1, code?: string): Promise<void> {
    for (const id of i % 2 ? [...TITLES].reverse() : TITLES) await parent.add(id, copies);
    if (code) await parent.applyCode(code);
  }

  /** Every parent presses Pay at once; the answers, tallied by status for the log. */
  async function startAll(buyers: SaleParent[], label: string, addressOf?: (i: number) => string): Promise<Answer[]> {
    const { answers, slowestMs } = await pressPayAtOnce(buyers, addressOf);
    console.info(`${target.name}, ${label}: ${JSON.stringify(tally(answers))} in ${Math.round(slowestMs)} ms`);
    return answers;
  }

  /** An intent, or a refusal a person can read: never a fault of the shop. */
  function expectReadable(answers: Answer[]): void {
    expect(unreadable(answers)).toEqual([]);
  }

  const succeeded = (buyers: SaleParent[], answers: Answer[]) => buyers.filter((_, i) => answers[i]!.status === 200);

  /** Pays with the sandbox's succeeding card and completes the order, all at once. */
  async function payAll(buyers: SaleParent[]): Promise<void> {
    expect(await Promise.all(buyers.map((b) => b.payAndComplete()))).not.toContain(false);
  }

  /** Intents the provider still considers live that no open or paid checkout stands behind. */
  async function strayIntents(): Promise<string[]> {
    const rows = await shop
      .db('sandboxPaymentIntents as i')
      .leftJoin('checkouts as c', 'c.paymentIntentId', 'i.id')
      .whereNot('i.status', 'canceled')
      .where((q) => q.whereNull('c.id').orWhereIn('c.status', ['canceled']))
      .select<Array<{ id: string }>>('i.id');
    return rows.map((r) => r.id);
  }

  /** Every copy is in stock, held, or sold: none lost, none sold twice. */
  async function expectCopiesAccountedFor(): Promise<void> {
    for (const bookId of TITLES) {
      const book = await shop.db('books').where({ id: bookId }).first('inStock');
      const sold = await sum('orderItems', bookId);
      const held = await sum('stockHolds', bookId);
      expect(Number(book.inStock) + sold + held).toBe(STOCK);
    }
  }

  async function sum(table: string, bookId: number): Promise<number> {
    const row = (await shop.db(table).where({ bookId }).sum({ n: 'quantity' }).first()) as { n: number | string | null };
    return Number(row.n ?? 0);
  }

  async function openCheckouts(where: Record<string, unknown>): Promise<Array<{ id: number }>> {
    return shop
      .db('checkouts')
      .where({ ...where, status: 'open' })
      .select('id');
  }

  it('fifty parents pay for the same books at once: every one gets an intent, and pays', async () => {
    await Promise.all(parents.map((parent, i) => fillCart(parent, i, 2)));
    const answers = await startAll(parents, 'fifty parents, no code');
    expectReadable(answers);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(PARENTS);
    expect(await strayIntents()).toEqual([]);

    await payAll(parents);
    expect(Number(((await shop.db('orders').count({ n: '*' }).first()) as { n: number | string }).n)).toBe(PARENTS);
    await expectCopiesAccountedFor();
  }, 120_000);

  it('with a limited code, while earlier payments complete: the code is spent exactly, the rest told why', async () => {
    await Promise.all(parents.map((parent, i) => fillCart(parent, i, 1, CODE)));
    const early = parents.slice(0, PARENTS / 2);
    const late = parents.slice(PARENTS / 2);
    const first = await startAll(early, 'first half, with the code');
    expectReadable(first);
    expect(succeeded(early, first)).toHaveLength(early.length);

    // The first half's completions take the code and the books while the second half's starts do.
    const [second] = await Promise.all([startAll(late, 'second half, while paying'), payAll(early)]);
    expectReadable(second);
    const lucky = succeeded(late, second);
    expect(lucky).toHaveLength(CODE_USES - early.length);
    for (const a of second.filter((s) => s.status !== 200)) expect(a.body.message).toBe(DISCOUNT_MESSAGES.usedUp);
    expect(await strayIntents()).toEqual([]);

    await payAll(lucky);
    expect(await codeRow(shop, CODE)).toMatchObject({ uses: CODE_USES, held: 0 });
    await expectCopiesAccountedFor();
  }, 120_000);

  it('one customer pressing Pay twenty times at once holds one checkout, within the copies allowed', async () => {
    const [buyer] = (await arriving(1)) as [SaleParent];
    await buyer.add(TITLES[0]!, MAX_COPIES_PER_TITLE);
    const answers = await startAll(Array<SaleParent>(20).fill(buyer), 'one customer, twenty starts');
    expectReadable(answers);
    expect(answers.some((a) => a.status === 200)).toBe(true);

    const user = await shop.db('users').where({ email: buyer.email }).first('id');
    const open = await shop
      .db('checkouts')
      .where({ userId: user.id, status: 'open' })
      .select<Array<{ paymentIntentId: string }>>('paymentIntentId');
    expect(open).toHaveLength(1);
    expect(answers.map((a) => a.body.paymentIntentId)).toContain(open[0]!.paymentIntentId);
    const held = await sum('stockHolds', TITLES[0]!);
    expect(held).toBeLessThanOrEqual(MAX_COPIES_PER_TITLE);
    expect(await strayIntents()).toEqual([]);
    await expectCopiesAccountedFor();
  }, 120_000);

  it('twenty customers from one address at once stay within the checkouts one address may hold', async () => {
    const neighbours = await arriving(20);
    await Promise.all(neighbours.map((buyer) => buyer.add(TITLES[1]!, 1)));
    const answers = await startAll(neighbours, 'twenty customers, one address', () => '192.0.2.77');
    expectReadable(answers);

    expect(answers.filter((a) => a.status === 200)).toHaveLength(MAX_OPEN_CHECKOUTS_PER_ADDRESS);
    for (const a of answers.filter((s) => s.status !== 200))
      expect([a.status, a.body.message]).toEqual([429, CHECKOUT_MESSAGES.tooManyCheckouts]);
    const fromThere = succeeded(neighbours, answers).map((b) => b.intent!.paymentIntentId);
    const key = (await shop.db('checkouts').whereIn('paymentIntentId', fromThere).first('clientKey')).clientKey as string;
    expect(await openCheckouts({ clientKey: key })).toHaveLength(MAX_OPEN_CHECKOUTS_PER_ADDRESS);
    expect(await strayIntents()).toEqual([]);
    await expectCopiesAccountedFor();
  }, 120_000);
});
