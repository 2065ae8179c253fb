import type { Db } from '../../db.ts';
import type { RedisClient } from '../../web/session.ts';
import { onCatalogueChange, readCatalogueVersion } from './catalogue-version.ts';

/** Every process listens here; a message only says "read the version again". */
export const CATALOGUE_CHANNEL = 'shop:catalogue-version';
/** The fallback when no message arrives: the version row is read at most this often. */
export const RECHECK_MS = 1000;

export interface CatalogueWatch {
  /**
   * The catalogue version as this process knows it: never older than a change this process
   * committed; another process's change arrives through Redis at once, or by re-reading the
   * row at most RECHECK_MS later.
   */
  current(): Promise<number>;
  /** Calls `listener` whenever the version read differs from the one before. */
  onChange(listener: () => void): void;
}

export interface WatchOptions {
  db: Db;
  redis?: RedisClient | undefined;
  recheckMs?: number;
  now?: () => number;
}

export function watchCatalogue({ db, redis, recheckMs = RECHECK_MS, now = Date.now }: WatchOptions): CatalogueWatch {
  let known: number | undefined;
  let readAt = 0;
  // Raised by every change notice: a read that began before the notice must not be kept as fresh.
  let generation = 0;
  let reading: Promise<number> | undefined;
  let listening = false;
  const listeners: Array<() => void> = [];

  const forget = () => {
    generation++;
    readAt = 0;
    reading = undefined;
  };

  async function read(): Promise<number> {
    const started = generation;
    const version = await readCatalogueVersion(db);
    if (started === generation) {
      readAt = now();
      if (version !== known) {
        known = version;
        for (const listener of listeners) listener();
      }
    }
    return version;
  }

  function listen(): void {
    listening = true;
    onCatalogueChange(() => {
      forget();
      redis?.publish(CATALOGUE_CHANNEL, '1').catch(() => {
        // Redis is away: the other processes re-read the row within RECHECK_MS.
      });
    });
    if (redis) subscribe(redis, forget);
  }

  return {
    current() {
      if (!listening) listen();
      if (known !== undefined && now() - readAt < recheckMs) return Promise.resolve(known);
      reading ??= read().finally(() => {
        reading = undefined;
      });
      return reading;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}

/** A second connection (a subscribed one can do nothing else), closed with the first. */
function subscribe(redis: RedisClient, onMessage: () => void): void {
  const subscriber = redis.duplicate();
  subscriber.on('error', () => {
    // Reconnects and subscribes again on its own; until then RECHECK_MS is the guarantee.
  });
  redis.on('end', () => subscriber.destroy());
  subscriber
    .connect()
    .then(() => subscriber.subscribe(CATALOGUE_CHANNEL, onMessage))
    .catch(() => {});
}
