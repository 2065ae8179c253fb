import type { Knex } from 'knex';
import { BaseModel } from './BaseModel.ts';

export class Book extends BaseModel {
  static override tableName = 'books';

  /** Books a shopper may see and buy: every shopper surface reads through this, never Book.query. */
  static onSale(db: Knex | Knex.Transaction) {
    return Book.query(db).where('books.hidden', false);
  }

  id!: number;
  title!: string;
  author!: string;
  description!: string;
  /** DECIMAL(10,2) as the driver returns it; read it through toCents(). */
  price!: string | number;
  imageUrl!: string | null;
  inStock!: number;
  amazonUrl!: string | null;
  amazonKindleUrl!: string | null;
  ageRange!: string;
  pages!: number | null;
  publishedOn!: Date | string;
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
}
