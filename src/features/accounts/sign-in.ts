import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../../web/session.ts';
import { destroySession, regenerateSession } from '../../web/auth.ts';
import type { CartService } from '../cart/cart.service.ts';

/**
 * Where an operator's sign-in goes on after the password: the second factor, which
 * admin/access serves. Declared here, where signing in sends operators, because admin builds
 * on accounts and not the other way round.
 */
export const TWO_FACTOR_PATH = '/admin/two-factor';

/**
 * Starts a signed-in session: a new session id, the visitor's cart joins the account's, and a
 * discount code applied at checkout before signing in stays applied.
 */
export async function startUserSession(
  req: Request,
  { userId, sessionVersion }: { userId: number; sessionVersion: number },
  carts: CartService,
): Promise<void> {
  const { cartId: visitorCartId, discountCode } = req.session;
  await regenerateSession(req);
  req.session.userId = userId;
  req.session.sessionVersion = sessionVersion;
  if (discountCode) req.session.discountCode = discountCode;
  await carts.mergeIntoAccount(visitorCartId, userId);
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
