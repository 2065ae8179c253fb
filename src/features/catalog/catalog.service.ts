import { createHash } from 'node:crypto';
import type { Db } from '../../db.ts';
import { isMySql } from '../../db.ts';
import { Book } from '../../models/Book.ts';
import { NotFound } from '../../web/errors.ts';
import { toBookDto, type BookDto } from './book.dto.ts';
import type { BookListQuery } from './catalog.schemas.ts';
import { readCatalogueVersion } from './catalogue-version.ts';

export const RECOMMENDED_COUNT = 3;

export function createCatalogService(db: Db) {
  return {
    async listBooks({ exclude, limit, random }: BookListQuery = {}): Promise<BookDto[]> {
      const query = Book.onSale(db);
      if (exclude !== undefined) query.whereNot('id', exclude);
      if (random === 'true') query.orderByRaw(isMySql(db) ? 'RAND()' : 'RANDOM()');
      else query.orderBy('id');
      if (limit !== undefined) query.limit(limit);
      return (await query).map(toBookDto);
    },

    async getBook(id: number): Promise<BookDto> {
      const book = await Book.onSale(db).findById(id);
      if (!book) throw new NotFound('Book not found');
      return toBookDto(book);
    },

    /**
     * Three other books, chosen afresh with each catalogue version but the same in between and in
     * every process: a book page stays cacheable and keeps its ETag until the catalogue changes.
     */
    async recommendedFor(id: number): Promise<BookDto[]> {
      const [others, version] = await Promise.all([this.listBooks({ exclude: id }), readCatalogueVersion(db)]);
      const rank = (book: BookDto) => createHash('sha1').update(`${version}:${id}:${book.id}`).digest('hex');
      const ranked = others.map((book) => ({ book, rank: rank(book) }));
      ranked.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
      return ranked.slice(0, RECOMMENDED_COUNT).map(({ book }) => book);
    },

    async countBooks(): Promise<number> {
      const row = (await db('books').count({ n: '*' }).first()) as { n: number | string } | undefined;
      return Number(row?.n ?? 0);
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
