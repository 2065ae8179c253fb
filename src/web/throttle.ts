import type { Knex } from 'knex';
import { createHash } from 'node:crypto';
import { RateLimiterMySQL, RateLimiterRedis, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { isMySql, type Db } from '../db.ts';
import { DeadlineExceeded, withinDeadline } from '../lib/deadline.ts';
import { REDIS_DEADLINE_MS, SQL_DEADLINE_MS, type RedisClient } from './session.ts';

/**
 * Limits shared by every app process, in Redis when it is configured, otherwise in the
 * database's rate_limits table. An attempt is reserved atomically before the work it guards
 * (a password hash, a mail), so a burst of parallel requests cannot slip past a check that
 * has not been counted yet. A store that does not answer in time is an outage (503), as it is
 * for sessions.
 */
export interface Limit {
  /** Attempts allowed per window. */
  points: number;
  windowMs: number;
}

export interface Reservation {
  allowed: boolean;
  /** Attempts reserved in the current window, this one included. */
  used: number;
}

export interface Limiter {
  reserve(key: string): Promise<Reservation>;
  /** Gives one reserved attempt back (it turned out not to count, e.g. a successful sign-in). */
  giveBack(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

export type Limits = (name: string, limit: Limit) => Limiter;

export const SQL_TABLE = 'rate_limits';

export interface LimitsOptions {
  db: Db;
  redis?: RedisClient | undefined;
  /** Where the counters live in Redis; tests give each shop its own. */
  prefix?: string | undefined;
  /** Limits replaced by name (tests that sign up many parents from one address). */
  overrides?: Readonly<Record<string, Limit>> | undefined;
  /** How long a check waits for the store: the sessions' deadline for the same store by default. */
  deadlineMs?: number | undefined;
}

export function createLimits({
  db,
  redis,
  prefix = 'shop:throttle:',
  overrides = {},
  deadlineMs = redis ? REDIS_DEADLINE_MS : SQL_DEADLINE_MS,
}: LimitsOptions): Limits {
  let sweeping = false;
  return (name, limit) => {
    const { points, windowMs } = overrides[name] ?? limit;
    const options = { keyPrefix: `${prefix}${name}`, points, duration: Math.ceil(windowMs / 1000) };
    // One limiter per process is enough to sweep expired rows from the shared table.
    const sweep = !sweeping;
    sweeping = true;
    const limiter: RateLimiterAbstract = redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, useRedisPackage: true })
      : isMySql(db)
        ? new RateLimiterMySQL({
            ...options,
            storeClient: db,
            storeType: 'knex',
            dbName: databaseName(db),
            tableName: SQL_TABLE,
            tableCreated: true,
            clearExpiredByTimeout: sweep,
          })
        : new RateLimiterSQLite({
            ...options,
            storeClient: db,
            storeType: 'knex',
            tableName: SQL_TABLE,
            tableCreated: true,
            clearExpiredByTimeout: sweep,
          });
    return wrap(limiter, points, deadlineMs);
  };
}

function wrap(limiter: RateLimiterAbstract, points: number, deadlineMs: number): Limiter {
  const inTime = <T>(work: Promise<T>) => withinDeadline(work, deadlineMs, () => new DeadlineExceeded('the throttle store', deadlineMs));
  return {
    async reserve(key) {
      try {
        const res = await inTime(limiter.consume(storeKey(key)));
        return { allowed: true, used: res.consumedPoints };
      } catch (err) {
        // The library rejects with a result when the limit is spent, and with an Error when the store fails.
        if (err instanceof RateLimiterRes) return { allowed: false, used: Math.max(err.consumedPoints, points + 1) };
        throw err;
      }
    },
    async giveBack(key) {
      await inTime(limiter.reward(storeKey(key), 1));
    },
    async clear(key) {
      await inTime(limiter.delete(storeKey(key)));
    },
  };
}

// Keys carry emails and addresses of any length: hashed, they stay short and out of plain sight.
function storeKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

function databaseName(db: Db): string {
  const connection = (db.client as Knex.Client).config.connection as { database?: string };
  if (!connection.database) throw new Error('DATABASE_URL names no database');
  return connection.database;
}
