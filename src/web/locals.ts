import type { RequestHandler } from 'express';
import type { SessionData } from 'express-session';
import type { AccountsService, SessionUser } from '../features/accounts/accounts.service.ts';
import type { CartService } from '../features/cart/cart.service.ts';
import { cartBadgeText } from '../features/cart/badge.ts';
import { csrfToken } from './csrf.ts';
import { existingSession, hasSession } from './session-presence.ts';
import { ACCOUNT_MESSAGES } from '../features/accounts/accounts.messages.ts';

// Signing out destroys the session, so its toast travels in the redirect's query instead.
const LOGGED_OUT = ACCOUNT_MESSAGES.loggedOut;

/** What every server-rendered page's layout needs: who is signed in, the cart badge, the flash toast. */
export function pageLocals(deps: { accounts: AccountsService; carts: CartService }): RequestHandler {
  return async (req, res, next) => {
    // A visitor without a session has no user, cart or flash: nothing here makes one.
    const session: Partial<SessionData> = existingSession(req) ?? {};
    const user = session.userId ? ((res.locals.sessionUser as SessionUser | undefined) ?? (await deps.accounts.findSessionUser(session.userId))) : undefined;
    const cartCount = await deps.carts.countItems({ userId: user?.id, cartId: session.cartId });
    res.locals.user = user ?? null;
    res.locals.cartCount = cartCount;
    res.locals.cartBadge = cartBadgeText(cartCount);
    res.locals.currentPath = req.path;
    res.locals.csrfToken = () => csrfToken(req);
    // A form a visitor without a session may send (add to cart) leaves the token out rather than make a session for it.
    res.locals.hasSession = hasSession(req);
    res.locals.flash = session.flash ?? (req.query.loggedout === '1' ? { ...LOGGED_OUT, variant: 'success' } : null);
    if (session.flash) delete req.session.flash;
    next();
  };
}
