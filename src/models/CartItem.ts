import { BaseModel } from './BaseModel.ts';
import { Book } from './Book.ts';

export class CartItem extends BaseModel {
  static override tableName = 'cart_items';

  id!: number;
  cartId!: number;
  bookId!: number;
  quantity!: number;
  book?: Book;

  static override relationMappings = () => ({
    book: {
      relation: BaseModel.BelongsToOneRelation,
      modelClass: Book,
      join: { from: 'cart_items.bookId', to: 'books.id' },
    },
  });
}
