import { toDecimal } from '../../lib/money.ts';
import type { Book } from '../../models/Book.ts';
import { dtoFields, type BookDtoFields } from './book-fields.ts';
import { coverImage, coverSrc, type CoverImage } from './cover.ts';
import { copiesForSale, preorderCopiesLeft } from './preorder.rules.ts';

/**
 * One shape for a book, used by the pages, the islands and the API (docs/architecture.md, "What the
 * API answers"). Its plain fields (title, author, publishedOn, takesPreorders...) are those
 * book-fields.ts marks for it, as stored; the rest are worked out here.
 */
export interface BookDto extends BookDtoFields {
  id: number;
  price: string;
  priceCents: number;
  imageUrl: string | null;
  /** The cover as an <img> shows it: every stored width, and its size. */
  cover: CoverImage;
  /** Copies for an ordinary sale: the shelf less what is held and what pre-orders are still owed. */
  inStock: number;
  /** Pre-order copies left under the title's limit; null: no limit. */
  preorderCopiesLeft: number | null;
}

export { COMING_SOON } from './book-field-rules.ts';

export function toBookDto(book: Book): BookDto {
  return {
    ...dtoFields(book),
    id: book.id,
    price: toDecimal(book.price),
    priceCents: book.price,
    // Worked out as the book is drawn: the cover's address follows S3_PUBLIC_URL.
    imageUrl: coverSrc(book),
    cover: coverImage(book),
    inStock: copiesForSale(book),
    preorderCopiesLeft: preorderCopiesLeft(book),
  };
}
