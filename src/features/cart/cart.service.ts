import type { Knex } from 'knex';
import type { Db } from '../../db.ts';
import { Book } from '../../models/Book.ts';
import { Cart } from '../../models/Cart.ts';
import { CartItem } from '../../models/CartItem.ts';
import { Conflict, NotFound } from '../../web/errors.ts';
import { toBookDto, type BookDto } from '../catalog/book.dto.ts';
import type { CartItemDto } from './cart.dto.ts';
import { addToLine, addToLineCapped, addToOwnedLine, keepLargerLineCapped, ownedCartIds, setLine, type OwnedCart } from './cart.lines.ts';
import { offerFor } from '../catalog/preorder.rules.ts';
import {
  buyAgainLine,
  decideQuantity,
  refusalMessage,
  supplyLimit,
  supplyOf,
  type QuantityDecision,
  type Shortfall,
  type Supply,
} from './cart.rules.ts';

/** Whose cart: a signed-in user's, or the visitor cart whose id the session holds. */
export interface CartOwner {
  userId?: number | undefined;
  cartId?: number | undefined;
  /** Derived from the visitor's session: finds their cart before the session has its id. */
  visitorKey?: string | undefined;
}

export interface CartChange {
  /** The cart's id: a visitor's session keeps it. */
  cartId: number;
  items: CartItemDto[];
}

type Trx = Knex | Knex.Transaction;

/**
 * `shopDay`: the shop's calendar day (services.ts), which decides whether a title's line is a
 * pre-order's, drawing on its pre-order copies, or an ordinary one, drawing on its stock.
 */
export function createCartService(db: Db, shopDay: () => string) {
  /** What a line of the book may draw on today. */
  function supplyFor(book: Book): Supply {
    return supplyOf(offerFor(toBookDto(book), shopDay()));
  }

  async function findCartId(trx: Trx, { userId, cartId, visitorKey }: CartOwner): Promise<number | undefined> {
    if (userId) return (await Cart.query(trx).findOne({ userId }))?.id;
    const byId = cartId ? await Cart.query(trx).findById(cartId).whereNull('userId') : undefined;
    if (byId || !visitorKey) return byId?.id;
    return (await Cart.query(trx).findOne({ visitorKey }).whereNull('userId'))?.id;
  }

  /**
   * The owner's cart, made if missing. An account's cart is unique by user, a visitor's by the
   * key of their session, so first additions that arrive together agree on one cart.
   */
  async function ensureCartId(owner: CartOwner): Promise<number> {
    const existing = await findCartId(db, owner);
    if (existing) return existing;
    if (!owner.userId && !owner.visitorKey) return (await Cart.query(db).insert({ userId: null })).id;
    const unique = owner.userId ? { user_id: owner.userId } : { visitor_key: owner.visitorKey };
    await db('carts').insert(unique).onConflict(Object.keys(unique)).ignore();
    const made = await findCartId(db, { userId: owner.userId, visitorKey: owner.visitorKey });
    if (!made) throw new Error('The cart just made could not be found');
    return made;
  }

  /** The cart the session names, checked by the statement that uses it; none while only the visitor key would find it. */
  function ownedCart({ userId, cartId }: CartOwner): OwnedCart | undefined {
    if (userId) return { userId };
    return cartId ? { visitorCartId: cartId } : undefined;
  }

  async function itemsOf(trx: Trx, cart: number | OwnedCart | undefined): Promise<CartItemDto[]> {
    if (!cart) return [];
    // A plain join: objection's graph join costs more than the query on the cart's busiest path.
    const rows = await trx('cart_items')
      .join('books', 'books.id', 'cart_items.book_id')
      .whereIn('cart_items.cart_id', typeof cart === 'number' ? [cart] : ownedCartIds(trx, cart))
      .orderBy('cart_items.id')
      .select<Array<Record<string, unknown> & { lineId: number; lineQuantity: number }>>(
        'books.*',
        'cart_items.id as lineId',
        'cart_items.quantity as lineQuantity',
      );
    const today = shopDay();
    return rows.map(({ lineId, lineQuantity, ...book }) => {
      const dto = toBookDto(Book.fromDatabaseJson(book));
      const offer = offerFor(dto, today).kind;
      const preorder = offer === 'preorder' || offer === 'preorders-full';
      return { id: lineId, bookId: dto.id, quantity: lineQuantity, book: dto, preorder, outOn: preorder ? dto.publishedOn : null };
    });
  }

  async function loadBook(trx: Trx, bookId: number): Promise<Book> {
    const book = await Book.onSale(trx).findById(bookId);
    if (!book) throw new NotFound('Book not found');
    return book;
  }

  function refuseUnlessSet(decision: QuantityDecision, book: Book): void {
    if (decision.kind === 'refuse') throw new Conflict(refusalMessage(decision, book.title));
  }

  // A refused addition is told the limit as it stands: what decideQuantity says of any line past it.
  function refuseAtLimit(book: Book, supply: Supply): never {
    const decision = decideQuantity(supplyLimit(supply) + 1, supply);
    throw new Conflict(decision.kind === 'refuse' ? refusalMessage(decision, book.title) : 'That many copies cannot be added.');
  }

  return {
    async getItems(owner: CartOwner): Promise<CartItemDto[]> {
      return itemsOf(db, await findCartId(db, owner));
    },

    /** Copies in the cart: the header badge's number. */
    /** The badge's count, on every page: one query, the owner's cart found as findCartId does. */
    async countItems({ userId, cartId }: Pick<CartOwner, 'userId' | 'cartId'>): Promise<number> {
      if (!userId && !cartId) return 0;
      const query = db('cart_items').join('carts', 'carts.id', 'cart_items.cart_id');
      if (userId) query.where('carts.user_id', userId);
      else query.where('carts.id', cartId!).whereNull('carts.user_id');
      const row = (await query.sum({ n: 'cart_items.quantity' }).first()) as { n: number | string | null } | undefined;
      return Number(row?.n ?? 0);
    },

    /** Adds copies to a line; the line must not pass the copies it may draw on (stock, or pre-order copies) or the per-title cap. */
    async addItem(owner: CartOwner, bookId: number, quantity: number): Promise<CartChange & { book: BookDto }> {
      // The usual case, a cart the session knows and a book with copies to spare, in two or three
      // round trips; anything else (a first cart, a refusal and its reason) takes the long way.
      const owned = ownedCart(owner);
      if (owned && (await addToOwnedLine(db, owned, bookId, quantity, shopDay()))) {
        const items = await itemsOf(db, owned);
        const line = items.find((item) => item.bookId === bookId);
        const cartId = 'visitorCartId' in owned ? owned.visitorCartId : await findCartId(db, owner);
        // The copies were added: never add them again, whatever happened to the cart since.
        return { cartId: cartId ?? 0, items, book: line?.book ?? toBookDto(await loadBook(db, bookId)) };
      }
      const book = await loadBook(db, bookId);
      const cartId = await ensureCartId(owner);
      // One atomic statement adds the copies or refuses them; no first look, which a race could outdate.
      const supply = supplyFor(book);
      if (!(await addToLine(db, cartId, bookId, quantity, supplyLimit(supply)))) refuseAtLimit(book, supply);
      return { cartId, items: await itemsOf(db, cartId), book: toBookDto(book) };
    },

    /** Sets a line's quantity; below 1 removes it. */
    async setQuantity(owner: CartOwner, bookId: number, quantity: number): Promise<CartChange> {
      const cartId = await findCartId(db, owner);
      const notInCart = new NotFound('That book is not in your cart.');
      if (!cartId) throw notInCart;
      // Any book, so one taken off sale can still be taken out of the cart (never added to).
      const book = await Book.query(db).findById(bookId);
      if (!book) throw new NotFound('Book not found');
      const decision = decideQuantity(quantity, supplyFor(book));
      if (decision.kind !== 'remove' && book.hidden) throw new NotFound('Book not found');
      if (decision.kind === 'remove') {
        if (!(await CartItem.query(db).delete().where({ cartId, bookId }))) throw notInCart;
      } else {
        if (!(await CartItem.query(db).findOne({ cartId, bookId }))) throw notInCart;
        refuseUnlessSet(decision, book);
        if (decision.kind === 'set' && !(await setLine(db, cartId, bookId, decision.quantity))) throw notInCart;
      }
      return { cartId, items: await itemsOf(db, cartId) };
    },

    /** The title of a book in the cart that has since been taken off sale, if any. */
    async withdrawnTitle(owner: CartOwner): Promise<string | undefined> {
      const cartId = await findCartId(db, owner);
      if (!cartId) return undefined;
      const row: { title: string } | undefined = await db('cart_items')
        .join('books', 'books.id', 'cart_items.book_id')
        .where({ 'cart_items.cart_id': cartId, 'books.hidden': true })
        .first('books.title');
      return row?.title;
    },

    async removeItem(owner: CartOwner, bookId: number): Promise<CartItemDto[]> {
      const owned = ownedCart(owner);
      if (owned) {
        await db('cart_items').whereIn('cart_id', ownedCartIds(db, owned)).where('book_id', bookId).delete();
        return itemsOf(db, owned);
      }
      const cartId = await findCartId(db, owner);
      if (cartId) await CartItem.query(db).delete().where({ cartId, bookId });
      return itemsOf(db, cartId);
    },

    async clear(owner: CartOwner, trx: Trx = db): Promise<void> {
      const cartId = await findCartId(trx, owner);
      if (cartId) await CartItem.query(trx).delete().where({ cartId });
    },

    /**
     * 'Buy again': an earlier order's lines added to the cart, each as far as its limit allows
     * (the same capped upsert as a sign-in's merge); answers what fell short and why.
     */
    async addAgain(
      owner: CartOwner,
      lines: ReadonlyArray<{ bookId: number; title: string; quantity: number }>,
    ): Promise<{ cartId: number; shortfalls: Shortfall[] }> {
      const cartId = await ensureCartId(owner);
      const shortfalls: Shortfall[] = [];
      for (const line of lines) {
        const book = await Book.onSale(db).findById(line.bookId);
        const inCart = (await CartItem.query(db).findOne({ cartId, bookId: line.bookId }))?.quantity ?? 0;
        const supply = book && supplyFor(book);
        const { add, shortfall } = buyAgainLine(book && supply && { title: book.title, supply }, line.title, line.quantity, inCart);
        if (book && supply && add > 0) await addToLineCapped(db, cartId, book.id, add, supplyLimit(supply));
        if (shortfall) shortfalls.push(shortfall);
      }
      return { cartId, shortfalls };
    },

    /**
     * At sign-in, the visitor cart's books join the account's cart, capped like any line, and
     * the visitor cart is deleted. A book in both carts keeps the larger quantity, not the sum:
     * a parent who put it in the cart again (coming back after a declined card, or on another
     * device) wants it once, not twice (mergedQuantity in cart.rules.ts).
     */
    async mergeIntoAccount(visitorCartId: number | undefined, userId: number): Promise<void> {
      const fromId = await findCartId(db, { cartId: visitorCartId });
      if (!fromId) return;
      const intoId = await ensureCartId({ userId });
      await db.transaction(async (trx) => {
        const incoming = await CartItem.query(trx).where({ cartId: fromId }).withGraphJoined('book');
        // Deleting the visitor cart claims it: of two sign-ins merging it at once, one adds its books.
        if (!(await Cart.query(trx).deleteById(fromId).whereNull('userId'))) return;
        for (const line of incoming) {
          await keepLargerLineCapped(trx, intoId, line.bookId, line.quantity, supplyLimit(supplyFor(line.book!)));
        }
      });
    },
  };
}

export type CartService = ReturnType<typeof createCartService>;
