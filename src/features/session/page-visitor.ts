import type { VisitorOf } from '../../web/session-pages.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { isCurrentSession } from '../accounts/session-validity.ts';
import { cartBadgeText } from '../cart/badge.ts';
import type { CartService } from '../cart/cart.service.ts';

/**
 * Who a stored session stands for on a catalogue page answered before the app: the same
 * user and cart badge pageLocals gives the app's pages. A session that has ended, or an
 * account that must change its password first, is left to the app.
 */
export function pageVisitor({ accounts, carts }: { accounts: AccountsService; carts: CartService }): VisitorOf {
  return async (session) => {
    const user = session.userId ? await accounts.findSessionUser(session.userId) : undefined;
    if (session.userId && (!user || !isCurrentSession(user, session) || user.mustChangePassword)) return undefined;
    const cartCount = await carts.countItems({ userId: user?.id, cartId: session.cartId });
    return { header: { user: user ?? null, cartCount, cartBadge: cartBadgeText(cartCount) }, csrfToken: session.csrfToken ?? undefined };
  };
}
