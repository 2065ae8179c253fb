import type { RequestHandler } from 'express';
import type { SessionData } from 'express-session';
import { csrfToken } from './csrf.ts';
import { existingSession, hasSession } from './session-presence.ts';

// What the layout needs from the shop's features, handed in by app.ts: web/ imports no
// feature code, so plumbing and shop rules cannot grow into each other.

/** The signed-in user as the layout shows them (accounts' SessionUser fits). */
export interface LayoutUser {
  id: number;
}

export interface PageLocalsDeps {
  accounts: { findSessionUser(userId: number): Promise<LayoutUser | undefined> };
  carts: { countItems(owner: { userId: number | undefined; cartId: number | undefined }): Promise<number> };
  /** The header's badge for an item count. */
  cartBadgeText(count: number): string;
  /** Signing out destroys the session, so its toast travels in the redirect's query instead. */
  loggedOut: { title: string; text: string };
}

/** What every server-rendered page's layout needs: who is signed in, the cart badge, the flash toast. */
export function pageLocals(deps: PageLocalsDeps): RequestHandler {
  return async (req, res, next) => {
    // A visitor without a session has no user, cart or flash: nothing here makes one.
    const session: Partial<SessionData> = existingSession(req) ?? {};
    const user = session.userId
      ? ((res.locals.sessionUser as LayoutUser | undefined) ?? (await deps.accounts.findSessionUser(session.userId)))
      : undefined;
    const cartCount = await deps.carts.countItems({ userId: user?.id, cartId: session.cartId });
    res.locals.user = user ?? null;
    res.locals.cartCount = cartCount;
    res.locals.cartBadge = deps.cartBadgeText(cartCount);
    res.locals.currentPath = req.path;
    res.locals.csrfToken = () => csrfToken(req);
    // A form a visitor without a session may send (add to cart) leaves the token out rather than make a session for it.
    res.locals.hasSession = hasSession(req);
    res.locals.flash = session.flash ?? (req.query.loggedout === '1' ? { ...deps.loggedOut, variant: 'success' } : null);
    if (session.flash) delete req.session.flash;
    next();
  };
}
