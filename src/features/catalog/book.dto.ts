import { toDecimal } from '../../lib/money.ts';
import type { Book } from '../../models/Book.ts';
import { coverImage, type CoverImage } from './cover.ts';
import { copiesForSale, preorderCopiesLeft } from './preorder.rules.ts';

/** One shape for a book, used by the pages, the islands and the API (docs/architecture.md, "What the API answers"). */
export interface BookDto {
  id: number;
  title: string;
  author: string;
  description: string;
  price: string;
  priceCents: number;
  imageUrl: string | null;
  /** The cover as an <img> shows it: every stored width, and its size. */
  cover: CoverImage;
  /** Copies for an ordinary sale: the shelf less what is held and what pre-orders are still owed. */
  inStock: number;
  /** The operator takes pre-orders while the title is forthcoming (preorder.rules.ts, offerFor). */
  takesPreorders: boolean;
  /** Pre-order copies left under the title's limit; null: no limit. */
  preorderCopiesLeft: number | null;
  amazonUrl: string | null;
  amazonKindleUrl: string | null;
  ageRange: string;
  pages: number | null;
  publishedOn: string;
  isbn: string | null;
  publisher: string;
}

export const COMING_SOON = '#coming-soon';

export function toBookDto(book: Book): BookDto {
  return {
    id: book.id,
    title: book.title,
    author: book.author,
    description: book.description,
    price: toDecimal(book.price),
    priceCents: book.price,
    imageUrl: book.imageUrl,
    cover: coverImage(book),
    inStock: copiesForSale(book),
    takesPreorders: Boolean(book.takesPreorders),
    preorderCopiesLeft: preorderCopiesLeft(book),
    amazonUrl: book.amazonUrl,
    amazonKindleUrl: book.amazonKindleUrl,
    ageRange: book.ageRange,
    pages: book.pages,
    publishedOn: book.publishedOn,
    isbn: book.isbn ?? null,
    publisher: book.publisher ?? 'Little Lantern Books',
  };
}
