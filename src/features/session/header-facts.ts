import type { AccountsService, SessionUser } from '../accounts/accounts.service.ts';
import { cartBadgeText } from '../cart/badge.ts';
import type { CartService } from '../cart/cart.service.ts';

/** What the site header shows a visitor (views/partials/header.eta): who is signed in, and the cart badge. */
export interface HeaderFacts {
  user: SessionUser | null;
  cartCount: number;
  cartBadge: string;
}

export type HeaderFactsReader = (
  ids: { userId?: number | undefined; cartId?: number | undefined },
  /** The session's user when a middleware already loaded it (endStaleSessions). */
  knownUser?: SessionUser,
) => Promise<HeaderFacts>;

/** The one place the header's facts come from: a new field for the header is added here and in the template. */
export function headerFacts({ accounts, carts }: { accounts: AccountsService; carts: CartService }): HeaderFactsReader {
  return async ({ userId, cartId }, knownUser) => {
    const user = userId ? (knownUser ?? (await accounts.findSessionUser(userId)) ?? null) : null;
    const cartCount = await carts.countItems({ userId: user?.id, cartId });
    return { user, cartCount, cartBadge: cartBadgeText(cartCount) };
  };
}
