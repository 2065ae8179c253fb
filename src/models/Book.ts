import { BaseModel } from './BaseModel.ts';

export class Book extends BaseModel {
  static override tableName = 'books';

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
}
