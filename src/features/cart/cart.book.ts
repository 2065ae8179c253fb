import { toDecimal } from '../../lib/money.ts';
import type { Book } from '../../models/Book.ts';
import { coverImage } from '../catalog/cover.ts';
import type { CartBookDto } from './cart.dto.ts';

/** The books table's columns a cart line reads: what CartBookDto shows, and the cover's. */
export const CART_BOOK_COLUMNS = [
  'id',
  'title',
  'price',
  'image_url',
  'in_stock',
  'amazon_url',
  'amazon_kindle_url',
  'cover_name',
  'cover_width',
  'cover_height',
  'cover_widths',
] as const;

type CartBookRow = Pick<
  Book,
  | 'id'
  | 'title'
  | 'price'
  | 'imageUrl'
  | 'inStock'
  | 'amazonUrl'
  | 'amazonKindleUrl'
  | 'coverName'
  | 'coverWidth'
  | 'coverHeight'
  | 'coverWidths'
>;

export function toCartBookDto(book: CartBookRow): CartBookDto {
  return {
    id: book.id,
    title: book.title,
    price: toDecimal(book.price),
    priceCents: book.price,
    imageUrl: book.imageUrl,
    cover: coverImage(book),
    inStock: book.inStock,
    amazonUrl: book.amazonUrl,
    amazonKindleUrl: book.amazonKindleUrl,
  };
}
