import type { Cents } from '../lib/money.ts';
import { BaseModel } from './BaseModel.ts';
import { Book } from './Book.ts';

export class OrderItem extends BaseModel {
  static override tableName = 'order_items';
  static override moneyColumns = ['price'];

  id!: number;
  orderId!: number;
  bookId!: number;
  title!: string;
  quantity!: number;
  price!: Cents;
  /** A pre-ordered line: its copies are served from stock on publication day, not at the sale. */
  preorder!: boolean | number;
  book?: Book;

  static override relationMappings = () => ({
    book: {
      relation: BaseModel.BelongsToOneRelation,
      modelClass: Book,
      join: { from: 'order_items.bookId', to: 'books.id' },
    },
  });
}
