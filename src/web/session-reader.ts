import type { IncomingMessage } from 'node:http';
import type Database from 'better-sqlite3';
import { unsign } from 'cookie-signature';
import { Lru } from '../lib/lru.ts';
import type { SessionData, Store } from 'express-session';
import type { RedisClient } from './session.ts';
import { DeadlineExceeded, withinDeadline } from '../lib/deadline.ts';
import { isServiceUnavailable } from './unavailable.ts';

/** A stored session as the store gives it back, with the expiry its cookie carries. */
export type StoredSession = Partial<SessionData> & { cookie?: { expires?: string | Date | null } };

export type SessionReader = (req: IncomingMessage) => Promise<StoredSession | undefined>;

/** Loads a stored session by id; undefined when the store has none (or only an expired one). */
export type SessionLoader = (sid: string) => Promise<StoredSession | undefined>;

/**
 * Reads the session a request's cookie names, the way express-session would (the same signed
 * cookie, the same store), without its middleware: for answers made before the app. Says
 * undefined for no cookie, a cookie whose signature fails, or a session the store no longer has.
 */
export function sessionReader({ load, secret, cookieName }: { load: SessionLoader; secret: string; cookieName: string }): SessionReader {
  const marker = `${cookieName}=`;
  const verified = verifiedCookies(secret);
  return (req) => {
    const sid = sessionId(req.headers.cookie, marker, verified);
    if (!sid) return Promise.resolve(undefined);
    return load(sid).catch((err: unknown) => {
      if (isServiceUnavailable(err)) unansweredReads.set(req, err);
      throw err;
    });
  };
}

// Requests whose session the store could not give in front of the app because it is down or
// silent: the app answers them 503 at once instead of waiting for the store a second time.
const unansweredReads = new WeakMap<IncomingMessage, unknown>();

/** The outage that kept this request's session from being read in front of the app, if any. */
export function sessionReadOutage(req: IncomingMessage): unknown {
  return unansweredReads.get(req);
}

/** Loads through the store express-session uses. */
export function storeLoader(store: Store): SessionLoader {
  return (sid) =>
    new Promise((resolve, reject) => {
      store.get(sid, (err: Error | null, session) => (err ? reject(err) : resolve(session ?? undefined)));
    });
}

/**
 * Loads from Redis the way the store keeps sessions (JSON under prefix + id; Redis expires
 * them), with the store's deadline: a read past it is an outage, as it is for the store
 * (store-deadline.ts).
 */
export function redisSessionLoader(client: RedisClient, prefix: string, deadlineMs: number): SessionLoader {
  return async (sid) => {
    const data = await withinDeadline(client.get(prefix + sid), deadlineMs, () => new DeadlineExceeded('the session store', deadlineMs));
    return data ? (JSON.parse(data) as StoredSession) : undefined;
  };
}

/**
 * Loads from the embedded database's sessions table through its read-only connection
 * (openSqliteReader), with the SQL store's own test of expiry (connect-session-knex's get):
 * the same rows, without the pool and query builder that cost a catalogue page most of its time.
 */
export function sqliteSessionLoader(reader: Database.Database): SessionLoader {
  const statement = reader.prepare<[string, string], { sess: string }>(
    'SELECT sess FROM sessions WHERE sid = ? AND datetime(?) <= datetime(expired)',
  );
  // Async, so that a failed read rejects like the store's would.
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (sid) => {
    const row = statement.get(sid, new Date().toISOString());
    return row ? (JSON.parse(row.sess) as StoredSession) : undefined;
  };
}

/** Signed cookie values already checked, by value: most requests come from a few sessions. */
const VERIFIED_MEMO = { entries: 10_000, bytes: 4 * 1024 * 1024 };

/**
 * The session id a signed cookie value carries, or false. A signature's check is a function of
 * the value and the secret alone, so one that passed is remembered (a forged value never is).
 */
function verifiedCookies(secret: string): (signed: string) => string | false {
  const passed = new Lru<string>(VERIFIED_MEMO.entries, VERIFIED_MEMO.bytes);
  return (signed) => {
    const kept = passed.get(signed);
    if (kept !== undefined) return kept;
    const sid = unsign(signed, secret);
    if (sid !== false) passed.set(signed, sid, (signed.length + sid.length) * 2);
    return sid;
  };
}

function sessionId(header: string | undefined, marker: string, verify: (signed: string) => string | false): string | undefined {
  if (!header) return undefined;
  const at = header.indexOf(marker);
  if (at === -1 || (at > 0 && header[at - 1] !== ' ' && header[at - 1] !== ';')) return undefined;
  const end = header.indexOf(';', at);
  let value = header.slice(at + marker.length, end === -1 ? undefined : end).trim();
  try {
    value = decodeURIComponent(value);
  } catch {
    return undefined;
  }
  // express-session signs its cookie as "s:" + id + "." + signature.
  if (!value.startsWith('s:')) return undefined;
  const sid = verify(value.slice(2));
  return sid === false ? undefined : sid;
}
