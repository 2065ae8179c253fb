import session, { type Store } from 'express-session';
import { RedisStore } from 'connect-redis';
import { ConnectSessionKnexStore } from 'connect-session-knex';
import { createClient } from 'redis';
import type { RequestHandler } from 'express';
import { behindProxy, type Config } from '../config.ts';
import type { Db } from '../db.ts';
import type { Logger } from '../log.ts';
import { DeadlineStore } from './store-deadline.ts';
import { renewAgingSessions } from './session-renewal.ts';

declare module 'express-session' {
  interface SessionData {
    /** Opaque id the islands may see; never the cookie's value. */
    publicId: string;
    userId: number;
    /** The account's session version at sign-in (see endStaleSessions). */
    sessionVersion: number;
    cartId: number;
    // Toasts only confirm success: a refusal is told on its form (src/web/form-problems.ts).
    flash: { title: string; text: string; variant: 'success' };
    /** When the session was last extended (see renewAgingSessions). */
    renewedAt: number;
  }
}

export const SESSION_COOKIE = 'shop.sid';

/** How long a request waits for Redis before answering 503. */
export const REDIS_DEADLINE_MS = 1500;
/** The SQL store waits for a pool connection first (db.ts bounds that wait), then its query. */
export const SQL_DEADLINE_MS = 8000;

export type RedisClient = ReturnType<typeof createClient>;

export interface SessionStore {
  store: Store;
  /** The Redis connection when REDIS_URL is set, shared with the throttles. */
  redis?: RedisClient;
  ping(): Promise<void>;
  /** Deletes every session signed in (or half signed in) to the account: an erased account leaves none. */
  endSessionsOf(userId: number): Promise<number>;
  close(): Promise<void>;
}

/** Whether a stored session belongs to the account, signed in or waiting for its second step. */
function belongsTo(userId: number, sess: unknown): boolean {
  const data = sess as { userId?: unknown; halfSignIn?: { userId?: unknown } } | null;
  return data?.userId === userId || data?.halfSignIn?.userId === userId;
}

/** Redis when REDIS_URL is set (production), otherwise the SQL database's sessions table. */
export async function openSessionStore(
  config: Config,
  db: Db,
  { prefix = 'shop:sess:', log }: { prefix?: string; log?: Logger } = {},
): Promise<SessionStore> {
  const ttlSeconds = Math.round(config.SESSION_MAX_AGE_DAYS * 86_400);
  if (config.REDIS_URL) {
    const client = createClient({
      url: config.REDIS_URL,
      // While Redis is out, a command fails at once (the request answers 503) instead of
      // waiting in a queue for the reconnection.
      disableOfflineQueue: true,
      // No per-command timeout: the client's stops once a command is written, so it cannot see a
      // Redis that takes commands and answers nothing, and it costs every command an abort signal
      // and a timer. Each use sets a deadline of its own: the session store, the throttles, /readyz.
      socket: {
        connectTimeout: REDIS_DEADLINE_MS,
        // Keep reconnecting for as long as the outage lasts, at most two seconds apart.
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000),
      },
    });
    // Reconnects on its own and /readyz reports the outage; the log says why, once a minute.
    client.on('error', redisErrorLog(log));
    await client.connect();
    return {
      store: new DeadlineStore(new RedisStore({ client, prefix, ttl: ttlSeconds }), REDIS_DEADLINE_MS),
      redis: client,
      ping: async () => {
        await client.ping();
      },
      endSessionsOf: async (userId) => {
        // Sessions are not indexed by account: each is read once. Rare (an erasure), and bounded by the sessions kept.
        let ended = 0;
        for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
          for (const key of keys) {
            const value = await client.get(key);
            if (value && belongsTo(userId, JSON.parse(value))) ended += await client.del(key);
          }
        }
        return ended;
      },
      close: async () => {
        // Waiting for a polite QUIT to a Redis that is away would hold shutdown until it returns.
        if (client.isReady) await client.close();
        else client.destroy();
      },
    };
  }
  const knexStore = new ConnectSessionKnexStore({
    knex: db,
    tableName: 'sessions',
    createTable: false,
    cleanupInterval: 15 * 60_000,
  });
  const store = new DeadlineStore(knexStore, SQL_DEADLINE_MS);
  return {
    store,
    ping: async () => {
      await db('sessions').select('sid').limit(1);
    },
    endSessionsOf: async (userId) => {
      // The stored JSON names the account; the match is checked on the parsed session before deleting.
      const rows = await db('sessions')
        .where('sess', 'like', `%"userId":${userId}%`)
        .select<Array<{ sid: string; sess: string | object }>>('sid', 'sess');
      const sids = rows
        .filter((row) => belongsTo(userId, typeof row.sess === 'string' ? JSON.parse(row.sess) : row.sess))
        .map((row) => row.sid);
      return sids.length ? Number(await db('sessions').whereIn('sid', sids).delete()) : 0;
    },
    close: () => {
      // A sweep running now schedules the next one when it ends, unless the interval is 0.
      knexStore.options.cleanupInterval = 0;
      clearTimeout(knexStore.nextDbCleanup);
      return Promise.resolve();
    },
  };
}

/** How often one kind of Redis client error is logged: a Redis that is away fails every reconnection. */
export const REDIS_ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * The Redis client's errors, at error level, at most one line per kind (its name and code) per
 * interval; the line says how many of that kind went unlogged since the last one.
 */
export function redisErrorLog(
  log: Logger | undefined,
  { intervalMs = REDIS_ERROR_LOG_INTERVAL_MS, now = Date.now }: { intervalMs?: number; now?: () => number } = {},
): (err: unknown) => void {
  const kinds = new Map<string, { loggedAt: number; unlogged: number }>();
  return (err) => {
    if (!log) return;
    const e = (err ?? {}) as { name?: unknown; code?: unknown };
    const kind = `${typeof e.name === 'string' ? e.name : 'Error'}:${typeof e.code === 'string' || typeof e.code === 'number' ? e.code : ''}`;
    const seen = kinds.get(kind);
    const at = now();
    if (seen && at - seen.loggedAt < intervalMs) {
      seen.unlogged++;
      return;
    }
    kinds.set(kind, { loggedAt: at, unlogged: 0 });
    log.error({ err, unloggedSinceLast: seen?.unlogged ?? 0 }, 'Redis client error; reconnecting');
  };
}

export function sessionMaxAgeMs(config: Pick<Config, 'SESSION_MAX_AGE_DAYS'>): number {
  return config.SESSION_MAX_AGE_DAYS * 86_400_000;
}

/**
 * express-session, for every request that reaches the routes. A visitor's session is stored,
 * and its cookie sent, only once something is put in it; sessions are written when they
 * change, or past half their life (see renewAgingSessions).
 */
export function sessionMiddleware(config: Config, store: Store): RequestHandler[] {
  const maxAgeMs = sessionMaxAgeMs(config);
  const sessions = session({
    name: SESSION_COOKIE,
    secret: config.SESSION_SECRET,
    store,
    resave: false,
    // Browsing creates no session: one is stored only once something is put in it.
    saveUninitialized: false,
    rolling: false,
    // Unset: whether a request came over https is Express's req.secure, which trusts
    // X-Forwarded-Proto only from the configured proxy hops (TRUST_PROXY).
    proxy: undefined,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.isProduction ? 'auto' : false,
      maxAge: maxAgeMs,
    },
  });
  return [sessions, renewAgingSessions(maxAgeMs)];
}

/**
 * In production the cookie is Secure only when a request is known to have come over https.
 * Behind a TLS proxy that is known only from X-Forwarded-Proto, which is ignored while
 * TRUST_PROXY is 0: the cookie then travels without the Secure flag. Said once at start-up.
 */
export function insecureCookieWarning(config: Pick<Config, 'isProduction' | 'TRUST_PROXY'>): string | undefined {
  if (!config.isProduction || behindProxy(config)) return undefined;
  return 'TRUST_PROXY is 0 in production: behind a TLS proxy the shop cannot see that requests came over https, so the session cookie is sent without the Secure flag. Set TRUST_PROXY to the number of proxies in front of the shop (usually 1).';
}
