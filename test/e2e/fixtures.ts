// The browser journeys' `test`: Playwright's, plus the shop a file runs against and its mail.
import { test as base } from '@playwright/test';
import { freePortInLane, startShop, type Shop } from './harness.ts';
import { mailbox, type Mailbox } from './mailbox.ts';

interface ShopOptions {
  /**
   * Which file the shop belongs to: every file sets its own (`test.use({ shopFor: 'cart' })`),
   * so Playwright gives each file a worker, and so a shop on a fresh database, of its own. The
   * journeys count on that: the per-address limits (ten sign-ups an hour) and the admin's order
   * numbers would otherwise depend on which files ran before in the same shop.
   */
  shopFor: string;
  /** Extra environment for the shop (Stripe keys, for instance); see startShop(). */
  shopEnv: Record<string, string>;
}

interface ShopFixtures {
  /** The real server on a free port with a fresh database and the sample catalogue. */
  shop: Shop;
  /** What the shop mailed (the .eml files in its DATA_DIR). */
  mail: Mailbox;
}

export const test = base.extend<object, ShopOptions & ShopFixtures>({
  shopFor: ['', { scope: 'worker', option: true }],
  shopEnv: [{}, { scope: 'worker', option: true }],
  shop: [
    async ({ shopFor, shopEnv }, use, workerInfo) => {
      const port = await freePortInLane(workerInfo.parallelIndex, workerInfo.config.workers);
      const shop = await startShop({ name: shopFor, port, env: shopEnv });
      await use(shop);
      // Throws unless the shop shut down cleanly on SIGTERM: that fails the run.
      await shop.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  mail: [async ({ shop }, use) => use(mailbox(shop.env.DATA_DIR!)), { scope: 'worker' }],
});
