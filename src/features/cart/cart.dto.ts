import type { BookDto } from '../catalog/book.dto.ts';

/** One cart line as the cart page, the drawer island and GET /api/cart all see it. */
export interface CartItemDto {
  id: number;
  bookId: number;
  quantity: number;
  book: BookDto;
}
