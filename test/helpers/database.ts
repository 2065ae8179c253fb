import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import { connectDb, migrateLatest, mysqlConnection } from '../../src/db.ts';
import { createLogger } from '../../src/log.ts';

/**
 * Where a test's data lives. With DATABASE_URL set (CI's second run) every call makes a
 * fresh MariaDB database on that server, so test files never share rows; otherwise a
 * fresh SQLite file in a temp directory. Either starts as a copy of a template the
 * migrations ran on once, so each test shop does not run them all again.
 */
export interface TestDatabase {
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

export const usingMySql = Boolean(process.env.DATABASE_URL);

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** Names the template after the migrations' text, so a changed migration makes a new one. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) hash.update(file).update(readFileSync(path.join(MIGRATIONS_DIR, file)));
  return hash.digest('hex').slice(0, 12);
}

async function migrate(databaseUrl: string | undefined, dataDir: string, sqliteFile?: string): Promise<void> {
  const db = connectDb({ databaseUrl, dataDir, sqliteFile, log: createLogger('silent') });
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-test-'));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    copyFileSync(await sqliteTemplate(), path.join(dataDir, 'shop.sqlite'));
    return { databaseUrl: undefined, dataDir, drop: async () => {} };
  }

  const name = `shop_t_${randomBytes(6).toString('hex')}`;
  const admin = adminConnection(serverUrl);
  try {
    await cloneDatabase(admin, await mysqlTemplate(admin, serverUrl), name);
  } finally {
    await admin.destroy();
  }
  return {
    databaseUrl: databaseUrlFor(serverUrl, name),
    dataDir,
    drop: async () => {
      const conn = adminConnection(serverUrl);
      await conn.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.destroy();
    },
  };
}

/**
 * A new, empty database with nothing migrated, as a first installation starts: on the
 * DATABASE_URL server when it is set; undefined otherwise (the caller starts a MariaDB of its own).
 */
export async function createEmptyDatabase(): Promise<TestDatabase | undefined> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return undefined;
  const name = `shop_e_${randomBytes(6).toString('hex')}`;
  const admin = adminConnection(serverUrl);
  try {
    await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.destroy();
  }
  return {
    databaseUrl: databaseUrlFor(serverUrl, name),
    dataDir: mkdtempSync(path.join(tmpdir(), 'shop-test-')),
    drop: async () => {
      const conn = adminConnection(serverUrl);
      await conn.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.destroy();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// SQLite: a migrated file in the temp directory, copied per test shop.

async function sqliteTemplate(): Promise<string> {
  const file = path.join(tmpdir(), `shop-test-template-${migrationsFingerprint()}.sqlite`);
  if (existsSync(file)) return file;
  // Made aside and renamed into place: workers making it at the same moment each rename a whole file.
  const building = mkdtempSync(path.join(tmpdir(), 'shop-template-'));
  try {
    await migrate(undefined, building, 'template.sqlite');
    renameSync(path.join(building, 'template.sqlite'), file);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return file;
}

// ---------------------------------------------------------------------------------------------
// MariaDB: a migrated database on the server, its tables recreated per test shop.

function databaseUrlFor(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The template's name, after making it once per server under a lock every worker takes. */
async function mysqlTemplate(admin: Knex, serverUrl: string): Promise<string> {
  const name = `shop_template_${migrationsFingerprint()}`;
  await admin.transaction(async (conn) => {
    await conn.raw(`SELECT GET_LOCK(?, 120)`, [name]);
    try {
      await conn.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      // Runs nothing when a worker before this one finished it; finishes it when one stopped halfway.
      await migrate(databaseUrlFor(serverUrl, name), tmpdir());
    } finally {
      await conn.raw(`SELECT RELEASE_LOCK(?)`, [name]);
    }
  });
  return name;
}

/** Each of the template's tables as SHOW CREATE TABLE gives it, and its rows (the migrations' own). */
async function cloneDatabase(admin: Knex, template: string, name: string): Promise<void> {
  const tables = (await admin('information_schema.tables')
    .where({ table_schema: template, table_type: 'BASE TABLE' })
    .pluck('table_name')) as string[];
  // One connection, so USE and the switched-off key checks hold for every statement.
  await admin.transaction(async (conn) => {
    await conn.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await conn.raw(`USE \`${name}\``);
    // Tables may name tables not made yet in their foreign keys.
    await conn.raw('SET FOREIGN_KEY_CHECKS = 0');
    for (const table of tables) {
      const [rows] = (await conn.raw(`SHOW CREATE TABLE \`${template}\`.\`${table}\``)) as [Array<Record<string, string>>];
      await conn.raw(rows[0]!['Create Table']!);
      await conn.raw(`INSERT INTO \`${table}\` SELECT * FROM \`${template}\`.\`${table}\``);
    }
    await conn.raw('SET FOREIGN_KEY_CHECKS = 1');
  });
}

// A connection to the server itself, outside any one database.
function adminConnection(serverUrl: string) {
  const { database: _ignored, ...server } = mysqlConnection(serverUrl);
  return knexFactory({ client: 'mysql2', connection: server, pool: { min: 0, max: 1 } });
}
