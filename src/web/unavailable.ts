import knex from 'knex';
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
} from 'redis';

/** Seconds a client is asked to wait (Retry-After) when the database or Redis is out. */
export const RETRY_AFTER_SECONDS = 5;

// Redis client errors that mean "no answer from Redis", not "Redis refused the command".
const REDIS_OUTAGES = [
  ClientOfflineError,
  ClientClosedError,
  ConnectionTimeoutError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
  ReconnectStrategyError,
];

// Codes of a database or store that is down, restarting, unreachable, silent or too busy to take us.
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

/**
 * True when an error says a backing service (the database or Redis) is unavailable right now,
 * so the answer is 503 with Retry-After: the request was fine and may simply be repeated.
 * Follows the wrappers objection (nativeError) and others (cause) put around driver errors.
 */
export function isServiceUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if (err instanceof knex.KnexTimeoutError) return true;
  if (REDIS_OUTAGES.some((type) => err instanceof type)) return true;
  const e = err as { code?: unknown; nativeError?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && OUTAGE_CODES.has(e.code)) return true;
  return isServiceUnavailable(e.nativeError, depth + 1) || isServiceUnavailable(e.cause, depth + 1);
}
