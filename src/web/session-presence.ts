import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Session, SessionData, Store } from 'express-session';

// express-session hands every request a session object; only the ones it rebuilt from the
// store belong to a visitor who already has a session (and so a CSRF token to check).
const storedSessions = new WeakSet<object>();
const READS = new Set(['GET', 'HEAD']);
// Requests read without the session cookie, whose (new, empty) session nothing has asked for yet.
const unopened = new WeakSet<Request>();

/** Records each session express-session loads from the store (it builds them all through createSession). */
export function rememberStoredSessions(store: Store): Store {
  const createSession = store.createSession.bind(store);
  store.createSession = (req, data) => {
    const loaded = createSession(req, data);
    storedSessions.add(loaded);
    return loaded;
  };
  return store;
}

/**
 * A GET or HEAD without the session cookie has no session to load, yet express-session would
 * make a new one (a random id, a cookie, hooks on the response) for every page view. Here it
 * makes it only when something reads req.session: a form's CSRF token, /api/session. Without
 * a cookie express-session makes the session synchronously, so it can run inside the getter.
 */
export function lazySessions(sessions: RequestHandler, cookieName: string): RequestHandler {
  return (req, res, next) => {
    if (!READS.has(req.method) || req.headers.cookie?.includes(`${cookieName}=`)) return sessions(req, res, next);
    unopened.add(req);
    Object.defineProperty(req, 'session', {
      configurable: true,
      enumerable: true,
      get() {
        unopened.delete(req);
        delete (req as { session?: unknown }).session;
        sessions(req, res, () => {});
        return req.session;
      },
      set(value: Session & Partial<SessionData>) {
        unopened.delete(req);
        Object.defineProperty(req, 'session', { configurable: true, enumerable: true, writable: true, value });
      },
    });
    next();
  };
}

/** The request's session, or undefined for a visitor without one whose session nothing has needed yet. */
export function existingSession(req: Request): (Session & Partial<SessionData>) | undefined {
  return unopened.has(req) ? undefined : req.session;
}

/** Whether the request came with a session the store knew, rather than a new, unsaved one. */
export function hasSession(req: Request): boolean {
  const session = existingSession(req);
  return Boolean(session) && storedSessions.has(session!);
}

/**
 * A page made for one visitor's session is theirs alone: no shared cache may keep it, and the
 * browser asks again before showing it (a 304 when nothing changed).
 */
export const PERSONAL_PAGE_CACHING = 'private, no-cache';

export function personalPages(req: Request, res: Response, next: NextFunction): void {
  if (hasSession(req)) res.setHeader('Cache-Control', PERSONAL_PAGE_CACHING);
  next();
}
