import type { VisitorOf } from '../../web/session-pages.ts';
import { isCurrentSession } from '../accounts/session-validity.ts';
import { cartBadgeText } from '../cart/badge.ts';
import type { VisitorFactsReader } from './visitor-facts.ts';

/**
 * Who a stored session stands for on a catalogue page answered before the app: the same
 * user and cart badge pageLocals gives the app's pages. A session that has ended, or an
 * account that must change its password first, is left to the app.
 */
export function pageVisitor(readFacts: VisitorFactsReader): VisitorOf {
  return async (session) => {
    const facts = await readFacts({ userId: session.userId, cartId: session.cartId });
    if (!facts) return undefined;
    const { user, cartCount } = facts;
    if (user && (!isCurrentSession(user, session) || user.mustChangePassword)) return undefined;
    return { header: { user: user ?? null, cartCount, cartBadge: cartBadgeText(cartCount) }, csrfToken: session.csrfToken ?? undefined };
  };
}
