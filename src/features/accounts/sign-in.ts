import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../../web/session.ts';
import { destroySession, regenerateSession } from '../../web/auth.ts';
import type { CartService } from '../cart/cart.service.ts';

/**
 * Where a sign-in goes on after the password for an account with a second factor (and where an
 * operator sets one up): the second step, which admin/access serves. Declared here, where
 * signing in sends people, because admin builds on accounts and not the other way round.
 */
export const TWO_FACTOR_PATH = '/admin/two-factor';

declare module 'express-session' {
  interface SessionData {
    /**
     * The password was right for an account with a second factor, and the code is still to come
     * (docs/architecture.md, "Sign-in, sessions and lockout"). Until then the session has no
     * userId: nothing that reads it treats the visitor as signed in.
     */
    halfSignIn: { userId: number; sessionVersion: number; startedAt: number; next?: string };
    /** When this session passed the second factor (epoch ms). */
    secondFactorAt: number;
  }
}

/**
 * Starts a signed-in session: a new session id, the visitor's cart joins the account's, and a
 * discount code applied at checkout before signing in stays applied. `secondFactorPassed`
 * when this request also checked the account's second factor.
 */
export async function startUserSession(
  req: Request,
  { userId, sessionVersion }: { userId: number; sessionVersion: number },
  carts: CartService,
  { secondFactorPassed = false }: { secondFactorPassed?: boolean } = {},
): Promise<void> {
  const { cartId: visitorCartId, discountCode } = req.session;
  await regenerateSession(req);
  req.session.userId = userId;
  req.session.sessionVersion = sessionVersion;
  if (secondFactorPassed) req.session.secondFactorAt = Date.now();
  if (discountCode) req.session.discountCode = discountCode;
  await carts.mergeIntoAccount(visitorCartId, userId);
}

/**
 * The password of an account with a second factor: a new session id that signs nobody in yet.
 * The visitor's cart and discount code wait in it, and join the account when the code passes
 * (finishHalfSignIn). `next` is where the sign-in was going.
 */
export async function startHalfSignIn(
  req: Request,
  { userId, sessionVersion, next }: { userId: number; sessionVersion: number; next?: string | undefined },
): Promise<void> {
  const { cartId, discountCode } = req.session;
  await regenerateSession(req);
  req.session.halfSignIn = { userId, sessionVersion, startedAt: Date.now(), ...(next ? { next } : {}) };
  if (cartId) req.session.cartId = cartId;
  if (discountCode) req.session.discountCode = discountCode;
}

/**
 * The second factor passed for a half sign-in: a new session id again, signed in as at any
 * sign-in (the cart joins the account's). Returns where the sign-in was going, if anywhere.
 */
export async function finishHalfSignIn(req: Request, carts: CartService): Promise<{ userId: number; next?: string }> {
  const pending = req.session.halfSignIn;
  if (!pending) throw new Error('no sign-in is waiting for its second factor');
  await startUserSession(req, pending, carts, { secondFactorPassed: true });
  return { userId: pending.userId, ...(pending.next ? { next: pending.next } : {}) };
}

/**
 * Ends a signed-in session. The browser is also told to forget what this shop kept in it (the
 * checkout's typed fields, islands/lib/kept-fields.ts), so the next person in the tab starts
 * from nothing: a parent signing out of a family tablet leaves no name or address behind.
 */
export async function endUserSession(req: Request, res: Response): Promise<void> {
  await destroySession(req);
  res.clearCookie(SESSION_COOKIE, { path: '/' });
  res.set('Clear-Site-Data', '"storage"');
}
