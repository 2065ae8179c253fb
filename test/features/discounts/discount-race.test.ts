import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer, SHIPPING } from '../../helpers/checkout.ts';
import { addCode, codeRow, priceBook } from '../../helpers/discounts.ts';
import { DISCOUNT_MESSAGES } from '../../../src/features/discounts/discount.rules.ts';

// Fifty parents with the same code in their sessions start paying at the same moment, as real
// parallel requests (on MariaDB each runs on its own connection and they race for the code's
// row). The code allows five uses: exactly five payments carry the discount, every other
// parent is told the code is used up, and no use is reserved twice.
let shop: TestShop;
const parents: Buyer[] = [];
const PARENTS = 50;
const MAX_USES = 5;
const BOOK = 2;

beforeAll(async () => {
  // Each parent comes from an address of their own (through one trusted proxy), so the
  // per-address limit on open checkouts is not what stops them.
  shop = await buildTestShop({ env: { TRUST_PROXY: '1' } });
  await priceBook(shop, BOOK, '20.00');
  await addCode(shop, { code: 'FIRST-FIVE', kind: 'fixed', amount: 5_00, maxUses: MAX_USES });
  // Fifty sign-ups hash fifty passwords: on a busy machine that takes longer than one hook's usual time.
  for (let i = 0; i < PARENTS; i += 10) parents.push(...(await Promise.all(Array.from({ length: 10 }, readyParent))));
}, 180_000);
afterAll(async () => {
  await shop.close();
});

async function readyParent(): Promise<Buyer> {
  const buyer = new Buyer(shop);
  expect((await buyer.signUp(buyer.parent)).status).toBeLessThan(300);
  await buyer.add(BOOK, 1);
  expect((await buyer.send('post', '/checkout/discount', { code: 'first-five' })).status).toBe(303);
  return buyer;
}

describe('a code with five uses and fifty parents paying at once', () => {
  it('five payments carry the discount; the other forty-five are told it is used up', async () => {
    const answers = await Promise.all(
      parents.map((buyer, i) =>
        buyer.agent
          .post('/api/create-payment-intent-authenticated')
          .set('x-csrf-token', buyer.token)
          .set('x-forwarded-for', `10.0.${Math.floor(i / 200)}.${(i % 200) + 1}`)
          .send({ shippingInfo: SHIPPING }),
      ),
    );

    const paid = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    // $20.00 - $5.00 = $15.00, $7.99 shipping, $2.50 handling, no tax in Oregon.
    expect(paid.map((a) => a.body.amount)).toEqual(Array<number>(MAX_USES).fill(25_49));
    expect(refused.map((a) => [a.status, a.body.message])).toEqual(Array(PARENTS - MAX_USES).fill([409, DISCOUNT_MESSAGES.usedUp]));
    expect(await codeRow(shop, 'FIRST-FIVE')).toMatchObject({ held: MAX_USES, uses: 0 });
    const withCode = await shop.db('checkouts').where({ discountCode: 'FIRST-FIVE', status: 'open' }).count({ n: '*' }).first();
    expect(Number((withCode as { n: number | string }).n)).toBe(MAX_USES);
  }, 60_000);
});
