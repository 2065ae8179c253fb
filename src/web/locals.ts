import type { RequestHandler } from 'express';
import { csrfToken } from './csrf.ts';
import { hasSession } from './session-presence.ts';

// What the layout needs from the shop's features, handed in by app.ts: web/ imports no
// feature code, so plumbing and shop rules cannot grow into each other.

export interface PageLocalsDeps {
  /** The header's facts for a session's ids, given the user a middleware already loaded (features/session/header-facts.ts). */
  headerFacts(ids: { userId?: number | undefined; cartId?: number | undefined }, knownUser?: unknown): Promise<object>;
  /** Signing out destroys the session, so its toast travels in the redirect's query instead. */
  loggedOut: { title: string; text: string };
}

/** What every server-rendered page's layout needs: the header's facts, the form token, the flash toast. */
export function pageLocals(deps: PageLocalsDeps): RequestHandler {
  return async (req, res, next) => {
    const session = req.session;
    Object.assign(res.locals, await deps.headerFacts({ userId: session.userId, cartId: session.cartId }, res.locals.sessionUser));
    res.locals.currentPath = req.path;
    res.locals.csrfToken = () => csrfToken(req);
    // A form a visitor without a session may send (add to cart) leaves the token out rather than make a session for it.
    res.locals.hasSession = hasSession(req);
    res.locals.flash = session.flash ?? (req.query.loggedout === '1' ? { ...deps.loggedOut, variant: 'success' } : null);
    if (session.flash) delete session.flash;
    next();
  };
}
