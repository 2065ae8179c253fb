import { longDate } from '../../lib/dates.ts';

// Pre-orders, as pure rules: what a title's page offers for its date, stock, switch and limit,
// and when an order holding pre-ordered lines may ship. `today` is the shop's calendar day in
// SHOP_TIME_ZONE ("2026-11-28"); a title is forthcoming until that day reaches its publication date.

/** What the rules need to know of a title: the shape BookDto gives it (book.dto.ts). */
export interface TitleFacts {
  /** "2027-03-02". */
  publishedOn: string;
  /** Copies for an ordinary sale (copiesForSale). */
  inStock: number;
  takesPreorders: boolean;
  /** Pre-order copies left under the limit (preorderCopiesLeft); null: no limit. */
  preorderCopiesLeft: number | null;
}

/** The stored counts the facts are made from (the books row). */
export interface TitleCounts {
  inStock: number;
  preorderLimit: number | null;
  preordered: number;
}

export type Offer =
  /** In stock: Add to Cart, up to `copies`. */
  | { kind: 'buy'; copies: number }
  /** Forthcoming and taking pre-orders: Pre-order, up to `copies` (Infinity: no limit; never sent as JSON). */
  | { kind: 'preorder'; copies: number; outOn: string }
  /** Forthcoming, but every pre-order copy is taken: the "email me" form, as for a sold-out book. */
  | { kind: 'preorders-full'; outOn: string }
  /** No copies and no pre-orders: Coming Soon and the back-in-stock form. */
  | { kind: 'coming-soon' };

export function isForthcoming(publishedOn: string, today: string): boolean {
  return publishedOn > today;
}

/** Pre-order copies a title has left under its limit; null when it has no limit. */
export function preorderCopiesLeft({ preorderLimit, preordered }: Pick<TitleCounts, 'preorderLimit' | 'preordered'>): number | null {
  return preorderLimit === null ? null : Math.max(0, preorderLimit - preordered);
}

/** Copies for an ordinary sale: the shelf less the copies still owed to pre-orders, which are served first. */
export function copiesForSale({ inStock, preordered }: Pick<TitleCounts, 'inStock' | 'preordered'>): number {
  return Math.max(0, inStock - preordered);
}

/** What the book page and the catalogue card offer a parent today. */
export function offerFor(title: TitleFacts, today: string): Offer {
  if (title.takesPreorders && isForthcoming(title.publishedOn, today)) {
    const copies = title.preorderCopiesLeft ?? Infinity;
    return copies > 0 ? { kind: 'preorder', copies, outOn: title.publishedOn } : { kind: 'preorders-full', outOn: title.publishedOn };
  }
  return title.inStock > 0 ? { kind: 'buy', copies: title.inStock } : { kind: 'coming-soon' };
}

/** An order's line as the shipping rule sees it. */
export interface ShippingLine {
  preorder: boolean;
  /** The title's publication date as it stands now (the operator may move it). */
  publishedOn: string;
}

/** The day an order holding pre-ordered lines ships: the latest of their titles' dates; null when it holds none. */
export function shipsOn(lines: readonly ShippingLine[]): string | null {
  const dates = lines.filter((line) => line.preorder).map((line) => line.publishedOn);
  return dates.length ? dates.reduce((latest, day) => (day > latest ? day : latest)) : null;
}

/** Whether a paid pre-order may move to To pack: every title it waits for is out. */
export function mayShip(lines: readonly ShippingLine[], today: string): boolean {
  const day = shipsOn(lines);
  return day === null || day <= today;
}

/** "Out March 2, 2027": the book page and the card, beside the Coming Soon badge. */
export function outOnLabel(publishedOn: string): string {
  return `Out ${longDate(publishedOn)}`;
}

/** "Pre-order · out March 2, 2027": a pre-order's line in the cart, the drawer and the order summary. */
export function preorderLineLabel(publishedOn: string): string {
  return `Pre-order · out ${longDate(publishedOn)}`;
}

/** Beside the Pre-order button when few of the first print run's copies are left; null while plenty are. */
export function preorderCopiesNote(offer: Offer, few = FEW_PREORDER_COPIES): string | null {
  if (offer.kind !== 'preorder' || offer.copies > few) return null;
  return offer.copies === 1 ? 'Only 1 copy left to pre-order.' : `Only ${offer.copies} copies left to pre-order.`;
}

/** At or under this many pre-order copies left, the page says how many (the stock badge's "Only 10 left"). */
export const FEW_PREORDER_COPIES = 10;

/** The book page of a forthcoming title whose pre-order copies are all taken. */
export const PREORDERS_FULL_TEXT = "Every pre-order copy has been taken. Leave your email and we'll write when more copies are in.";

/** What the book page and a catalogue card say of a title's offer: which button, the day it is out, how many copies are left to pre-order. */
export function offerWords(offer: Offer) {
  return {
    kind: offer.kind,
    outOn: 'outOn' in offer ? outOnLabel(offer.outOn) : null,
    copiesNote: preorderCopiesNote(offer),
    fullText: offer.kind === 'preorders-full' ? PREORDERS_FULL_TEXT : null,
  };
}

export type OfferWords = ReturnType<typeof offerWords>;

/** The pre-order's story, in every place a parent reads about it (order-story.ts). */
export function preorderedSentence(publishedOn: string): string {
  return `Pre-ordered: we will send it as soon as it is out on ${longDate(publishedOn)}.`;
}

/** What the cart and the order summary say before payment when the order holds a pre-order. */
export function shipsTogetherSentence(publishedOn: string): string {
  return `This order includes a pre-order, so everything in it ships together once the last book is out, on ${longDate(publishedOn)}. You pay now.`;
}
