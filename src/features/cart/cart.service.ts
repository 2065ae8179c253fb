import type { Db } from '../../db.ts';

export interface CartOwner {
  userId?: number | undefined;
  cartId?: number | undefined;
}

export function createCartService(db: Db) {
  return {
    /** Copies in the cart: the header badge's number. */
    async countItems({ userId, cartId }: CartOwner): Promise<number> {
      if (!userId && !cartId) return 0;
      const query = db('cart_items').join('carts', 'carts.id', 'cart_items.cart_id');
      if (userId) query.where('carts.user_id', userId);
      else query.where('carts.id', cartId!).whereNull('carts.user_id');
      const row = (await query.sum({ n: 'cart_items.quantity' }).first()) as { n: number | string | null } | undefined;
      return Number(row?.n ?? 0);
    },
  };
}

export type CartService = ReturnType<typeof createCartService>;
