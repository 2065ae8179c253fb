import type { Db } from '../db.ts';
import type { RedisClient } from './session.ts';
import { withStoredKeys } from './throttle-keys.ts';

/**
 * Fixed-window hit counters shared by every app process: in Redis when it is configured,
 * otherwise in the database's throttles table. Nothing is kept in process memory.
 */
export interface Counter {
  /** Counts one hit and returns the hits in the current window. */
  hit(key: string, windowMs: number): Promise<number>;
  /** Hits in the current window, without counting one. */
  peek(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

export function createCounter({ db, redis, prefix = 'shop:throttle:' }: { db: Db; redis?: RedisClient | undefined; prefix?: string }): Counter {
  return withStoredKeys(redis ? redisCounter(redis, prefix) : sqlCounter(db, prefix));
}

function redisCounter(redis: RedisClient, prefix: string): Counter {
  return {
    async hit(key, windowMs) {
      const [hits] = await redis.multi().incr(prefix + key).pExpire(prefix + key, windowMs, 'NX').exec();
      return Number(hits);
    },
    async peek(key) {
      return Number((await redis.get(prefix + key)) ?? 0);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

function sqlCounter(db: Db, prefix: string): Counter {
  return {
    hit: (key, windowMs) =>
      db.transaction(async (trx) => {
        const now = Date.now();
        const row = await trx('throttles').where({ key: prefix + key }).forUpdate().first();
        if (!row || Number(row.windowEndsAt) <= now) {
          await trx('throttles')
            .insert({ key: prefix + key, hits: 1, windowEndsAt: now + windowMs })
            .onConflict('key')
            .merge();
          return 1;
        }
        await trx('throttles').where({ key: prefix + key }).increment('hits', 1);
        return Number(row.hits) + 1;
      }),
    async peek(key) {
      const row = await db('throttles').where({ key: prefix + key }).first();
      return row && Number(row.windowEndsAt) > Date.now() ? Number(row.hits) : 0;
    },
    async reset(key) {
      await db('throttles').where({ key: prefix + key }).delete();
    },
  };
}
