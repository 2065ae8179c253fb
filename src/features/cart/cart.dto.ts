import type { BookDto } from '../catalog/book.dto.ts';

/** One cart line as the cart page, the drawer island and GET /api/cart all see it. */
export interface CartItemDto {
  id: number;
  bookId: number;
  quantity: number;
  book: BookDto;
  /** A pre-order's line: the title is forthcoming and takes pre-orders (preorder.rules.ts, offerFor). */
  preorder: boolean;
  /** A pre-order's publication date, "2027-03-02"; null for an ordinary line. */
  outOn: string | null;
}
