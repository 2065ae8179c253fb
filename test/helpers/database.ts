import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { mysqlConnection } from '../../src/db.ts';

/**
 * Where a test's data lives. With DATABASE_URL set (CI's second run) every call makes a
 * fresh MariaDB database on that server, so test files never share rows; otherwise a
 * fresh SQLite file in a temp directory.
 */
export interface TestDatabase {
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

export const usingMySql = Boolean(process.env.DATABASE_URL);

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-test-'));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { databaseUrl: undefined, dataDir, drop: async () => {} };

  const name = `shop_t_${randomBytes(6).toString('hex')}`;
  const admin = adminConnection(serverUrl);
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    drop: async () => {
      const conn = adminConnection(serverUrl);
      await conn.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.destroy();
    },
  };
}

// A connection to the server itself, outside any one database.
function adminConnection(serverUrl: string) {
  const { database: _ignored, ...server } = mysqlConnection(serverUrl);
  return knexFactory({ client: 'mysql2', connection: server, pool: { min: 0, max: 1 } });
}
