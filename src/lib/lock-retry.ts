import { setTimeout as sleep } from 'node:timers/promises';

// The database may end a transaction that waited for a lock: MySQL picks a deadlock victim or
// gives up waiting, and SQLite answers "busy" when another process holds the write lock. The
// work itself was sound, so it is run again from the start, a few times, after a short random
// wait that keeps the competitors from meeting again in step.

const ATTEMPTS = 3;
const BASE_WAIT_MS = 15;

const LOCK_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const LOCK_ERRNOS = new Set([1213, 1205]);

/** A transaction the database ended because of a lock, not because of what it did. */
export function isLockConflict(err: unknown): boolean {
  for (let e = err as { code?: unknown; errno?: unknown; nativeError?: unknown } | null; e; e = e.nativeError as typeof e) {
    if (typeof e.code === 'string' && (LOCK_CODES.has(e.code) || e.code.startsWith('SQLITE_BUSY'))) return true;
    if (typeof e.errno === 'number' && LOCK_ERRNOS.has(e.errno)) return true;
    if (e.nativeError === e) break;
  }
  return false;
}

/** Runs `work` (a whole transaction, nothing outside the database) until it gets past lock conflicts, a bounded number of times. */
export async function retryOnLockConflict<T>(work: () => Promise<T>, attempts = ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !isLockConflict(err)) throw err;
      await sleep(BASE_WAIT_MS * attempt + Math.random() * BASE_WAIT_MS * 2);
    }
  }
}
