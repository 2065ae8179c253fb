import type { TestShop } from './app.ts';
import { listen } from './burst.ts';
import { usingMySql } from './database.ts';
import { startProductionServer } from './production-server.ts';

// Where a race test sends its parallel requests: the test shop listening in this process, and
// on MariaDB also two production worker processes on the same database, as production runs.

export interface RaceTarget {
  name: string;
  /** Starts the shop on the test shop's database; returns its URL and how to stop it. */
  start(shop: TestShop): Promise<{ url: string; stop(): Promise<void> }>;
}

const inThisProcess: RaceTarget = {
  name: 'one process',
  async start(shop) {
    const server = await listen(shop.app);
    return { url: server.url, stop: () => server.close() };
  },
};

const twoWorkers: RaceTarget = {
  name: 'two worker processes',
  async start(shop) {
    const server = await startProductionServer({
      DATABASE_URL: shop.database.databaseUrl!,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      WEB_CONCURRENCY: '2',
      TRUST_PROXY: '1',
      PASSWORD_HASH_COST: 'test',
    });
    return { url: server.baseUrl, stop: () => server.cleanUp() };
  },
};

/** Several processes share one database only on MariaDB; SQLite's file has one writer process. */
export const RACE_TARGETS: readonly RaceTarget[] = usingMySql ? [inThisProcess, twoWorkers] : [inThisProcess];
