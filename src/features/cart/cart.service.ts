import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import { Book } from '../../models/Book.ts';
import { Cart } from '../../models/Cart.ts';
import { CartItem } from '../../models/CartItem.ts';
import { Conflict, NotFound } from '../../web/errors.ts';
import { toBookDto, type BookDto } from '../catalog/book.dto.ts';
import { decideQuantity, mergedQuantity, refusalMessage } from './cart.rules.ts';

/** Whose cart: a signed-in user's, or the visitor cart whose id the session holds. */
export interface CartOwner {
  userId?: number | undefined;
  cartId?: number | undefined;
}

export interface CartItemDto {
  id: number;
  bookId: number;
  quantity: number;
  book: BookDto;
}

export interface CartChange {
  /** The cart's id: a visitor's session keeps it. */
  cartId: number;
  items: CartItemDto[];
}

type Trx = Knex | Knex.Transaction;

export function createCartService(db: Db) {
  async function findCartId(trx: Trx, { userId, cartId }: CartOwner): Promise<number | undefined> {
    if (userId) return (await Cart.query(trx).findOne({ userId }))?.id;
    if (cartId) return (await Cart.query(trx).findById(cartId).whereNull('userId'))?.id;
    return undefined;
  }

  async function ensureCartId(trx: Trx, owner: CartOwner): Promise<number> {
    const existing = await findCartId(trx, owner);
    if (existing) return existing;
    try {
      return (await Cart.query(trx).insert({ userId: owner.userId ?? null })).id;
    } catch (err) {
      // Two first additions at once: the other request created the account's cart.
      const created = owner.userId ? await findCartId(trx, owner) : undefined;
      if (created) return created;
      throw err;
    }
  }

  async function itemsOf(trx: Trx, cartId: number | undefined): Promise<CartItemDto[]> {
    if (!cartId) return [];
    const rows = await CartItem.query(trx).where({ cartId }).withGraphJoined('book').orderBy('cart_items.id');
    return rows.map((row) => ({ id: row.id, bookId: row.bookId, quantity: row.quantity, book: toBookDto(row.book!) }));
  }

  async function loadBook(trx: Trx, bookId: number): Promise<Book> {
    const book = await Book.query(trx).findById(bookId);
    if (!book) throw new NotFound('Book not found');
    return book;
  }

  async function writeLine(trx: Trx, cartId: number, book: Book, requested: number): Promise<void> {
    const decision = decideQuantity(requested, book.inStock);
    if (decision.kind === 'refuse') throw new Conflict(refusalMessage(decision, book.title));
    const line = await CartItem.query(trx).findOne({ cartId, bookId: book.id });
    if (decision.kind === 'remove') {
      if (line) await CartItem.query(trx).deleteById(line.id);
    } else if (line) {
      await CartItem.query(trx).patchAndFetchById(line.id, { quantity: decision.quantity });
    } else {
      await CartItem.query(trx).insert({ cartId, bookId: book.id, quantity: decision.quantity });
    }
  }

  return {
    async getItems(owner: CartOwner): Promise<CartItemDto[]> {
      return itemsOf(db, await findCartId(db, owner));
    },

    /** Copies in the cart: the header badge's number. */
    async countItems(owner: CartOwner): Promise<number> {
      const cartId = await findCartId(db, owner);
      if (!cartId) return 0;
      const row = (await db('cart_items').where({ cart_id: cartId }).sum({ n: 'quantity' }).first()) as { n: number | string | null } | undefined;
      return Number(row?.n ?? 0);
    },

    /** Adds copies to a line; the line's new quantity must not exceed the copies in stock. */
    async addItem(owner: CartOwner, bookId: number, quantity: number): Promise<CartChange & { book: BookDto }> {
      return db.transaction(async (trx) => {
        const book = await loadBook(trx, bookId);
        const cartId = await ensureCartId(trx, owner);
        const line = await CartItem.query(trx).findOne({ cartId, bookId });
        await writeLine(trx, cartId, book, (line?.quantity ?? 0) + quantity);
        return { cartId, items: await itemsOf(trx, cartId), book: toBookDto(book) };
      });
    },

    /** Sets a line's quantity; below 1 removes it. */
    async setQuantity(owner: CartOwner, bookId: number, quantity: number): Promise<CartChange> {
      return db.transaction(async (trx) => {
        const cartId = await findCartId(trx, owner);
        const line = cartId ? await CartItem.query(trx).findOne({ cartId, bookId }) : undefined;
        if (!cartId || !line) throw new NotFound('That book is not in your cart.');
        await writeLine(trx, cartId, await loadBook(trx, bookId), quantity);
        return { cartId, items: await itemsOf(trx, cartId) };
      });
    },

    async removeItem(owner: CartOwner, bookId: number): Promise<CartItemDto[]> {
      const cartId = await findCartId(db, owner);
      if (cartId) await CartItem.query(db).delete().where({ cartId, bookId });
      return itemsOf(db, cartId);
    },

    async clear(owner: CartOwner, trx: Trx = db): Promise<void> {
      const cartId = await findCartId(trx, owner);
      if (cartId) await CartItem.query(trx).delete().where({ cartId });
    },

    /**
     * At sign-in, the visitor cart's books join the account's cart: quantities add up,
     * capped by the copies in stock, and the visitor cart is deleted.
     */
    async mergeIntoAccount(visitorCartId: number | undefined, userId: number): Promise<void> {
      await db.transaction(async (trx) => {
        const fromId = await findCartId(trx, { cartId: visitorCartId });
        if (!fromId) return;
        const intoId = await ensureCartId(trx, { userId });
        const incoming = await CartItem.query(trx).where({ cartId: fromId }).withGraphJoined('book');
        for (const line of incoming) {
          const existing = await CartItem.query(trx).findOne({ cartId: intoId, bookId: line.bookId });
          const quantity = mergedQuantity(existing?.quantity ?? 0, line.quantity, line.book!.inStock);
          if (existing && quantity > 0) await CartItem.query(trx).patch({ quantity }).where({ id: existing.id });
          else if (existing) await CartItem.query(trx).deleteById(existing.id);
          else if (quantity > 0) await CartItem.query(trx).insert({ cartId: intoId, bookId: line.bookId, quantity });
        }
        await Cart.query(trx).deleteById(fromId);
      });
    },
  };
}

export type CartService = ReturnType<typeof createCartService>;
