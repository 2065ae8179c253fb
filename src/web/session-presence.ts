import type { Request } from 'express';
import type { Store } from 'express-session';

// express-session hands every request a session object; only the ones it rebuilt from the
// store belong to a visitor who already has a session (and so a CSRF token to check).
const storedSessions = new WeakSet<object>();

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

/** Whether the request came with a session the store knew, rather than a new, unsaved one. */
export function hasSession(req: Request): boolean {
  return Boolean(req.session) && storedSessions.has(req.session);
}
