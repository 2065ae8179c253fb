import type { Knex } from 'knex';
import type { Cents } from '../lib/money.ts';
import { BaseModel } from './BaseModel.ts';

export class Book extends BaseModel {
  static override tableName = 'books';
  static override moneyColumns = ['price'];
  static override dayColumns = ['publishedOn'];

  /** Books a shopper may see and buy: every shopper surface reads through this, never Book.query. */
  static onSale(db: Knex | Knex.Transaction) {
    return Book.query(db).where('books.hidden', false);
  }

  id!: number;
  title!: string;
  author!: string;
  description!: string;
  price!: Cents;
  imageUrl!: string | null;
  inStock!: number;
  amazonUrl!: string | null;
  amazonKindleUrl!: string | null;
  ageRange!: string;
  pages!: number | null;
  /** "2026-11-21". */
  publishedOn!: string;
  /** An uploaded cover's file name stem; null: imageUrl (or the placeholder) is the cover. */
  coverName!: string | null;
  coverWidth!: number | null;
  coverHeight!: number | null;
  /** "160,320,480": the widths stored for coverName. */
  coverWidths!: string | null;
  /** 13 digits, or null for a book entered without one. */
  isbn!: string | null;
  publisher!: string;
  /** Off sale: shoppers are told it does not exist; orders and the back office still show it. */
  hidden!: boolean | number;
  /** The operator's switch: a forthcoming title (publishedOn ahead) takes pre-orders. */
  takesPreorders!: boolean | number;
  /** The most copies pre-orders may take (the first print run); null: no limit. */
  preorderLimit!: number | null;
  /** Copies promised to pre-orders (held or paid) and not yet served from stock. */
  preordered!: number;
}
