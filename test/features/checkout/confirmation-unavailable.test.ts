// The confirmation page when the order cannot be read (the database fails for the request):
// the parent may just have paid, so the page says it could not load the order just now and
// offers to try again, with a 503, and the failure is logged at error with the request id.
// 'Order Not Found' (404) stays for an order that does not exist or is someone else's.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { placePaidOrder } from '../../helpers/orders.ts';
import type { Buyer } from '../../helpers/checkout.ts';
import { createLogger } from '../../../src/log.ts';
import { CONFIRMATION_UNAVAILABLE } from '../../../src/features/checkout/checkout.pages.ts';

const lines: Record<string, unknown>[] = [];
let shop: TestShop;
let buyer: Buyer;
let orderId: number;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  shop = await buildTestShop({ log: createLogger('error', stream) });
  ({ buyer, orderId } = await placePaidOrder(shop));
});
afterAll(() => shop.close());

/** The orders table out of reach for the requests made meanwhile. */
async function withoutOrdersTable<T>(work: () => Promise<T>): Promise<T> {
  await shop.db.schema.renameTable('orders', 'orders_away');
  try {
    return await work();
  } finally {
    await shop.db.schema.renameTable('orders_away', 'orders');
  }
}

describe('the confirmation page', () => {
  it('says it could not load the order just now, with a way to try again, when the database fails (503, not 404)', async () => {
    const url = `/order-confirmation?orderId=${orderId}`;
    const res = await withoutOrdersTable(() => buyer.agent.get(url).set('x-request-id', 'confirm-503'));
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.text).toContain('We could not load your order just now');
    expect(res.text).toContain(CONFIRMATION_UNAVAILABLE.text);
    expect(res.text).toContain(`<a href="/order-confirmation?orderId=${orderId}" role="button">Try again</a>`);
    expect(res.text).not.toContain('Order Not Found');

    const logged = lines.find((line) => line.msg === 'could not read the order for its confirmation page');
    expect(logged).toMatchObject({ level: 50, req: { id: 'confirm-503' } });

    // The retry works once the database answers again.
    const again = await buyer.agent.get(url).expect(200);
    expect(again.text).toContain(`#${orderId}`);
  });

  it("still answers 'Order Not Found' (404) for an order that does not exist or is someone else's", async () => {
    const unknown = await buyer.agent.get(`/order-confirmation?orderId=${orderId + 1000}`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Order Not Found');
    const { buyer: other } = await placePaidOrder(shop);
    const theirs = await other.agent.get(`/order-confirmation?orderId=${orderId}`);
    expect(theirs.status).toBe(404);
    expect(theirs.text).toContain('Order Not Found');
    expect(theirs.text).not.toContain('could not load');
  });
});
