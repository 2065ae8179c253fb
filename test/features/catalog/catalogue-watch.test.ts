import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpCatalogueVersion, readCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { CATALOGUE_CHANNEL, RECHECK_MS, watchCatalogue } from '../../../src/features/catalog/catalogue-watch.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer } from '../../helpers/checkout.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

/** A clock the test moves by hand. */
function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** Waits until `check` holds, for events that arrive on their own (a Redis message). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the catalogue version', () => {
  it('rises with every stock change: a hold taken, a hold returned', async () => {
    const start = await readCatalogueVersion(shop.db);
    const buyer = new Buyer(shop);
    await buyer.add(2, 1);
    const { stripeCustomerId } = await buyer.createAccount();
    expect((await buyer.startPayment({ stripeCustomerId })).status).toBe(200);
    const afterHold = await readCatalogueVersion(shop.db);
    expect(afterHold).toBeGreaterThan(start);
    // A new checkout by the same customer returns the first one's copies.
    expect((await buyer.startPayment({ stripeCustomerId })).status).toBe(200);
    expect(await readCatalogueVersion(shop.db)).toBeGreaterThan(afterHold);
  });

  it('is never behind a change this process committed, even within the recheck interval', async () => {
    const time = clock();
    const watch = watchCatalogue({ db: shop.db, redis: shop.sessions.redis, now: time.now });
    const before = await watch.current();
    await shop.db.transaction((trx) => bumpCatalogueVersion(trx));
    expect(await watch.current()).toBe(before + 1);
  });

  it('lets the requests that come while the version is read take the one known, and only the first wait', async () => {
    const time = clock();
    const watch = watchCatalogue({ db: shop.db, soleServer: true, now: time.now });
    const before = await watch.current();
    await shop.db.transaction((trx) => bumpCatalogueVersion(trx));
    const first = watch.current();
    const meanwhile = await Promise.all([watch.current(), watch.current()]);
    expect(meanwhile).toEqual([before, before]);
    expect(await first).toBe(before + 1);
    expect(await watch.current()).toBe(before + 1);
  });

  it("as the database's only server, hears its own change at once and another program's within the recheck interval", async () => {
    const time = clock();
    const watch = watchCatalogue({ db: shop.db, soleServer: true, now: time.now });
    const before = await watch.current();
    await shop.db.transaction((trx) => bumpCatalogueVersion(trx));
    expect(await watch.current()).toBe(before + 1);
    // A script writing the row announces nothing: kept until the recheck interval passes.
    await shop.db('catalogueVersion').where({ id: 1 }).increment('version', 1);
    expect(await watch.current()).toBe(before + 1);
    time.advance(RECHECK_MS);
    expect(await watch.current()).toBe(before + 2);
  });

  it('stays unchanged when the change is rolled back', async () => {
    const watch = watchCatalogue({ db: shop.db });
    const before = await watch.current();
    await expect(
      shop.db.transaction(async (trx) => {
        await bumpCatalogueVersion(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await watch.current()).toBe(before);
  });

  it("learns another process's change through Redis at once, or without Redis by reading the row every time", async () => {
    const time = clock();
    const watch = watchCatalogue({ db: shop.db, redis: shop.sessions.redis, now: time.now });
    const before = await watch.current();
    // Another process: the row changes in the database, and it says so on the channel.
    await shop.db('catalogueVersion').where({ id: 1 }).increment('version', 1);
    const redis = shop.sessions.redis;
    if (redis) {
      // No message (lost while Redis was out): the row is read again once the interval is up.
      expect(await watch.current()).toBe(before);
      time.advance(RECHECK_MS);
      expect(await watch.current()).toBe(before + 1);

      await shop.db('catalogueVersion').where({ id: 1 }).increment('version', 1);
      await eventually(async () => {
        await redis.publish(CATALOGUE_CHANNEL, '1');
        return (await watch.current()) === before + 2;
      });
      expect(await watch.current()).toBe(before + 2);

      // And a change made here is announced on the channel for the others.
      const listener = redis.duplicate();
      let heard = 0;
      await listener.connect();
      await listener.subscribe(CATALOGUE_CHANNEL, () => heard++);
      try {
        await shop.db.transaction((trx) => bumpCatalogueVersion(trx));
        await eventually(async () => heard > 0);
        expect(heard).toBeGreaterThan(0);
      } finally {
        await listener.close();
      }
    } else {
      // Nothing would tell this process: it reads the row for every page.
      expect(await watch.current()).toBe(before + 1);
    }
  });

  it('tells its listeners when the version it reads changes', async () => {
    const watch = watchCatalogue({ db: shop.db });
    let told = 0;
    watch.onChange(() => told++);
    await watch.current();
    await shop.db.transaction((trx) => bumpCatalogueVersion(trx));
    await watch.current();
    expect(told).toBe(2);
  });
});
