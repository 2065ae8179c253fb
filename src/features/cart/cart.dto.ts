import type { BookDto } from '../catalog/book.dto.ts';

/**
 * A cart line's book: the spec's book record without its description, which no cart surface
 * shows (the drawer, the cart and checkout pages), with the price in cents and the cover as an
 * <img> draws it.
 */
export type CartBookDto = Pick<
  BookDto,
  'id' | 'title' | 'price' | 'priceCents' | 'imageUrl' | 'cover' | 'inStock' | 'amazonUrl' | 'amazonKindleUrl'
>;

/** One cart line as the cart page, the drawer island and GET /api/cart all see it. */
export interface CartItemDto {
  id: number;
  bookId: number;
  quantity: number;
  book: CartBookDto;
}
