import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import knexFactory, { type Knex } from 'knex';
import { Model, knexSnakeCaseMappers } from 'objection';
import { migrationSource } from '../migrations/index.ts';
import type { Logger } from './log.ts';
import { LRUCache } from 'lru-cache';

export type Db = Knex;

const CONNECT_TIMEOUT_MS = 3000;
/** Statements an SQLite connection keeps compiled, by their SQL. */
const STATEMENTS_KEPT = 500;
const ACQUIRE_TIMEOUT_MS = 5000;
/** Connections one process keeps to MySQL/MariaDB. */
export const POOL_SIZE = 10;

export interface DbOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** SQLite file name inside dataDir; tests pass ':memory:' or their own file. */
  sqliteFile?: string;
  /** Where knex's own warnings go (a failed pool connection, for one); the console without it. */
  log?: Pick<Logger, 'warn' | 'error' | 'debug'>;
}

/**
 * knex asks better-sqlite3 to prepare every query anew, and compiling the SQL costs SQLite
 * more than running one of the shop's small queries: the connection keeps its statements by
 * their SQL instead. knex runs a statement to its end before the next query (better-sqlite3
 * is synchronous) and never changes its modes, so one statement serves every query with that SQL.
 * The shop's one replaced library method (docs/architecture.md, "Design decisions"): knex has no hook for
 * it, and it lives on the one connection object knex's pool hands us here.
 */
function keepPreparedStatements(conn: Database.Database): void {
  const kept = new LRUCache<string, Database.Statement>({ max: STATEMENTS_KEPT });
  const prepare = conn.prepare.bind(conn);
  conn.prepare = ((sql: string) => {
    let statement = kept.get(sql);
    if (!statement) kept.set(sql, (statement = prepare(sql)));
    return statement;
  }) as typeof conn.prepare;
}

export function knexConfig({ databaseUrl, dataDir, sqliteFile = 'shop.sqlite', log: logger }: DbOptions): Knex.Config {
  const migrations = { migrationSource, tableName: 'knex_migrations' };
  // Columns are snake_case in the database and camelCase everywhere in code, queries included.
  const mappers = knexSnakeCaseMappers();
  if (databaseUrl) {
    return {
      client: 'mysql2',
      connection: {
        ...mysqlConnection(databaseUrl),
        charset: 'utf8mb4',
        timezone: 'Z',
        dateStrings: false,
        // DECIMAL columns arrive as strings, which money.ts parses exactly.
        decimalNumbers: false,
        // A database host that does not answer fails the connection attempt within this time.
        connectTimeout: CONNECT_TIMEOUT_MS,
      },
      pool: {
        min: 0,
        // At most SALE_TRANSACTIONS_AT_ONCE (4) may wait on row locks at a time
        // (features/checkout/lock-order.ts): the other six are free for pages and carts.
        max: POOL_SIZE,
        // Dates the database makes itself (CURRENT_TIMESTAMP) are UTC like the ones the code
        // writes, whatever the server's own time zone: the numbers group orders by UTC day.
        afterCreate(
          conn: { query(sql: string, done: (err: Error | null) => void): void },
          done: (err: Error | null, conn: unknown) => void,
        ) {
          conn.query("SET time_zone = '+00:00'", (err) => done(err, conn));
        },
      },
      // knex waits 60 s for a pool connection by default; a request that cannot get one in a
      // few seconds answers 503 with Retry-After instead (a down database, or a saturated pool).
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
      migrations,
      ...mappers,
      ...knexLog(logger),
    };
  }
  const filename = sqliteFile === ':memory:' ? ':memory:' : path.join(dataDir, sqliteFile);
  if (filename !== ':memory:') mkdirSync(dataDir, { recursive: true });
  return {
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // One connection: SQLite serialises writers anyway, and ':memory:' must stay one database.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: Database.Database, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        keepPreparedStatements(conn);
        done(null, conn);
      },
    },
    migrations,
    ...mappers,
    ...knexLog(logger),
  };
}

// knex hands its logger strings (an error's stack included); they become JSON log lines.
function knexLog(logger: DbOptions['log']): Pick<Knex.Config, 'log'> {
  if (!logger) return {};
  const text = (m: unknown) => ({ detail: String(m) });
  return {
    log: {
      warn: (m: unknown) => logger.warn(text(m), 'database'),
      error: (m: unknown) => logger.error(text(m), 'database'),
      deprecate: (m: unknown) => logger.debug(text(m), 'database'),
      debug: (m: unknown) => logger.debug(text(m), 'database'),
    },
  };
}

/** Host, port, user, password and database of a mysql:// (or mariadb://) URL. */
export function mysqlConnection(databaseUrl: string) {
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
  };
}

export function connectDb(options: DbOptions): Db {
  const db = knexFactory(knexConfig(options));
  Model.knex(db);
  return db;
}

export function isMySql(db: Db): boolean {
  return (db.client as Knex.Client).config.client === 'mysql2';
}

/**
 * Applies new migrations. On MariaDB, servers started together take turns: each holds a lock
 * named after the database while it migrates (knex's own lock makes a latecomer quit, and its
 * first creation of its tables is not safe from two servers at once), and one that finds the
 * lock taken waits up to `waitSeconds` for it. SQLite has one process.
 */
export async function migrateLatest(db: Db, { waitSeconds = 120, log }: { waitSeconds?: number; log?: Logger } = {}): Promise<void> {
  if (!isMySql(db)) return applyMigrations(db);
  await db.transaction(async (holder) => {
    const take = async (seconds: number) =>
      Number(Object.values(firstRow(await holder.raw("SELECT GET_LOCK(CONCAT(DATABASE(), '.migrations'), ?) AS taken", [seconds])))[0]) ===
      1;
    if (!(await take(0))) {
      log?.info('another server is migrating the database: waiting for it to finish');
      if (!(await take(waitSeconds))) throw new Error(`another server has been migrating the database for ${waitSeconds} s: giving up`);
    }
    try {
      await applyMigrations(db);
    } finally {
      await holder.raw("SELECT RELEASE_LOCK(CONCAT(DATABASE(), '.migrations'))");
    }
  });
}

async function applyMigrations(db: Db): Promise<void> {
  try {
    await db.migrate.latest();
  } catch (err) {
    if ((err as Error).name !== 'MigrationLocked') throw err;
    // Under the named lock nobody else migrates: the row was left by a migration cut off half-way.
    throw new Error(
      'the database is marked as being migrated, but no server is migrating it: a migration was interrupted. Check the database, then release the mark with `npm run migrate -- unlock`',
      { cause: err },
    );
  }
}

/** The first row of a raw query's answer (mysql2 answers [rows, fields]). */
function firstRow(answer: unknown): Record<string, unknown> {
  const rows = (Array.isArray(answer) ? answer[0] : answer) as Record<string, unknown>[];
  return rows[0] ?? {};
}

export async function pingDb(db: Db): Promise<void> {
  await db.raw('select 1');
}
