import type { Db } from '../../db.ts';
import type { Logger } from '../../log.ts';
import { redisErrorLog, type RedisClient } from '../../web/session.ts';
import { onCatalogueChange, readCatalogueVersion } from './catalogue-version.ts';

/** Every process listens here; a message only says "read the version again". */
export const CATALOGUE_CHANNEL = 'shop:catalogue-version';
/** With Redis, the fallback when a message is lost: the version row is read at most this often. */
export const RECHECK_MS = 1000;

export interface CatalogueWatch {
  /**
   * The catalogue version: never older than a change this process committed, for the request
   * that asks first after it (one asking while that read runs gets the version before). With Redis,
   * another process's change arrives on the channel at once, or by re-reading the row at most
   * RECHECK_MS later if a message is lost. When this process is the database's only server
   * (the embedded SQLite file), another program's change (a script) shows within RECHECK_MS;
   * otherwise, without Redis, the row is read for every caller.
   */
  current(): Promise<number>;
  /** Calls `listener` whenever the version read differs from the one before. */
  onChange(listener: () => void): void;
}

export interface WatchOptions {
  db: Db;
  redis?: RedisClient | undefined;
  /** True when no other server process writes the database: its own changes are all it must hear of at once. */
  soleServer?: boolean;
  recheckMs?: number;
  now?: () => number;
  /** Where the subscriber's connection errors go (once a minute per kind). */
  log?: Logger | undefined;
}

export function watchCatalogue({
  db,
  redis,
  soleServer = false,
  recheckMs = RECHECK_MS,
  now = Date.now,
  log,
}: WatchOptions): CatalogueWatch {
  let known: number | undefined;
  let readAt = 0;
  // Raised by every change notice: a read that began before the notice must not be kept as fresh.
  let generation = 0;
  let reading: Promise<number> | undefined;
  const listeners: Array<() => void> = [];

  const forget = () => {
    generation++;
    readAt = 0;
    reading = undefined;
  };

  function seen(version: number): number {
    if (version !== known) {
      known = version;
      for (const listener of listeners) listener();
    }
    return version;
  }

  async function read(): Promise<number> {
    const started = generation;
    const version = await readCatalogueVersion(db);
    if (started === generation) {
      readAt = now();
      seen(version);
    }
    return version;
  }

  // From the start, not from the first page: a process that never serves a cached page (one
  // taking only orders) must still announce its changes to the others.
  function listen(): void {
    onCatalogueChange(() => {
      forget();
      redis?.publish(CATALOGUE_CHANNEL, '1').catch(() => {
        // Redis is away: the other processes re-read the row within RECHECK_MS.
      });
    });
    if (redis) subscribe(redis, forget, log);
  }

  // Without Redis no process hears of another's change: every caller gets a read begun after it
  // asked. Callers arriving while a read is under way share the one queued behind it.
  let queued: Promise<number> | undefined;
  function freshRead(): Promise<number> {
    if (!reading) {
      const started = read().finally(() => {
        if (reading === started) reading = undefined;
      });
      return (reading = started);
    }
    // The next read waits for the current one however it ends; the current one's callers get its failure.
    queued ??= reading
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return freshRead();
      });
    return queued;
  }

  listen();

  return {
    current() {
      if (!redis && !soleServer) return freshRead();
      if (known !== undefined && now() - readAt < recheckMs) return Promise.resolve(known);
      // The request that starts a read waits for it; those that come while it runs take the
      // version known, so a busy database slows one request, not every page.
      if (reading && known !== undefined) return Promise.resolve(known);
      if (reading) return reading;
      const started = read().finally(() => {
        if (reading === started) reading = undefined;
      });
      return (reading = started);
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}

/** A second connection (a subscribed one can do nothing else), closed with the first. */
function subscribe(redis: RedisClient, onMessage: () => void, log: Logger | undefined): void {
  const subscriber = redis.duplicate();
  // Reconnects and subscribes again on its own; until then RECHECK_MS is the guarantee.
  const logError = redisErrorLog(log);
  subscriber.on('error', logError);
  redis.on('end', () => subscriber.destroy());
  subscriber
    .connect()
    .then(() => subscriber.subscribe(CATALOGUE_CHANNEL, onMessage))
    .catch(logError);
}
