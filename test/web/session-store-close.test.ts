import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { connectDb, migrateLatest, type Db } from '../../src/db.ts';
import { openSessionStore } from '../../src/web/session.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// The SQL session store sweeps expired sessions every 15 minutes. Closing it (shutdown, a
// test's restart) must leave no sweep scheduled, even when one was running at that moment:
// the sweep would otherwise query a database that has been closed.
const SWEEP_MS = 15 * 60_000;

let data: TestDatabase;
let db: Db;
beforeAll(async () => {
  data = await createTestDatabase();
  db = connectDb({ databaseUrl: data.databaseUrl, dataDir: data.dataDir });
  await migrateLatest(db);
});
afterAll(async () => {
  await db.destroy();
  await data.drop();
});

it('closing the SQL session store during its sweep leaves no next sweep scheduled', async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: data.dataDir,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...(data.databaseUrl ? { DATABASE_URL: data.databaseUrl } : {}),
  });
  const sweeps: unknown[] = [];
  const cleared = new Set<unknown>();
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
    const timer = realSetTimeout(fn, ms, ...rest);
    if (ms === SWEEP_MS) sweeps.push(timer);
    return timer;
  }) as typeof setTimeout);
  vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((timer?: NodeJS.Timeout) => {
    cleared.add(timer);
    realClearTimeout(timer);
  }) as typeof clearTimeout);
  let swept = false;
  db.on('query-response', (_rows: unknown, query: { sql: string }) => {
    if (/^delete from [`"]?sessions/i.test(query.sql)) swept = true;
  });
  try {
    const sessions = await openSessionStore(config, db);
    // The first sweep starts as the store opens, and is still running as it closes.
    await sessions.close();
    await expect.poll(() => swept).toBe(true);
    await new Promise((resolve) => realSetTimeout(resolve, 50));
    expect(sweeps.filter((timer) => !cleared.has(timer))).toEqual([]);
  } finally {
    vi.restoreAllMocks();
  }
});
