import type { IncomingMessage } from 'node:http';
import { unsign } from 'cookie-signature';
import type { SessionData, Store } from 'express-session';

/** A stored session as the store gives it back, with the expiry its cookie carries. */
export type StoredSession = Partial<SessionData> & { cookie?: { expires?: string | Date | null } };

export type SessionReader = (req: IncomingMessage) => Promise<StoredSession | undefined>;

/**
 * Reads the session a request's cookie names, the way express-session would (the same signed
 * cookie, the same store), without its middleware: for answers made before the app. Says
 * undefined for no cookie, a cookie whose signature fails, or a session the store no longer has.
 */
export function sessionReader({ store, secret, cookieName }: { store: Store; secret: string; cookieName: string }): SessionReader {
  const marker = `${cookieName}=`;
  return (req) => {
    const sid = sessionId(req.headers.cookie, marker, secret);
    if (!sid) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      store.get(sid, (err: Error | null, session) => (err ? reject(err) : resolve(session ?? undefined)));
    });
  };
}

function sessionId(header: string | undefined, marker: string, secret: string): string | undefined {
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
  const sid = unsign(value.slice(2), secret);
  return sid === false ? undefined : sid;
}
