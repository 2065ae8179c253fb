import type { Db } from '../../db.ts';
import { isMySql } from '../../db.ts';
import { Book } from '../../models/Book.ts';
import { NotFound } from '../../web/errors.ts';
import { toBookDto, type BookDto } from './book.dto.ts';
import type { BookListQuery } from './catalog.schemas.ts';

export const RECOMMENDED_COUNT = 3;

export function createCatalogService(db: Db) {
  return {
    async listBooks({ exclude, limit, random }: BookListQuery = {}): Promise<BookDto[]> {
      const query = Book.query(db);
      if (exclude !== undefined) query.whereNot('id', exclude);
      if (random === 'true') query.orderByRaw(isMySql(db) ? 'RAND()' : 'RANDOM()');
      else query.orderBy('id');
      if (limit !== undefined) query.limit(limit);
      return (await query).map(toBookDto);
    },

    async getBook(id: number): Promise<BookDto> {
      const book = await Book.query(db).findById(id);
      if (!book) throw new NotFound('Book not found');
      return toBookDto(book);
    },

    async recommendedFor(id: number): Promise<BookDto[]> {
      return this.listBooks({ exclude: id, limit: RECOMMENDED_COUNT, random: 'true' });
    },

    async countBooks(): Promise<number> {
      const row = (await db('books').count({ n: '*' }).first()) as { n: number | string } | undefined;
      return Number(row?.n ?? 0);
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
