import { isMySql, type Db } from '../../db.ts';

// Full-text search over the books' title, author and description, through the index the
// migration 20261125000100_book_search made: FTS5 on SQLite, FULLTEXT on MariaDB.
//
// What a parent types never reaches either query language: it is cut into words of letters
// and digits, and the query is written from those words alone, so quotes, `*`, `-`,
// parentheses and words like NEAR or OR are only text. Both databases get the same words:
// InnoDB indexes no word under 3 letters (innodb_ft_min_token_size) nor its stopwords, and a
// required word it did not index matches nothing, so those words are left out everywhere
// (the "s" of "Bear's" included) and a search of nothing but them finds nothing.

export const MIN_WORD_LENGTH = 3;
/** Words beyond these are ignored: a long paste stays one small query. */
export const MAX_WORDS = 8;

// InnoDB's default stopword list (information_schema.INNODB_FT_DEFAULT_STOPWORD).
const STOPWORDS = new Set(
  'a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www'.split(
    ' ',
  ),
);

/** The words of a search the index can answer, lower case, each once, in the order typed. */
export function searchWords(text: string): string[] {
  const words = (
    text
      .toLowerCase()
      .normalize('NFC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((word) => [...word].length >= MIN_WORD_LENGTH && !STOPWORDS.has(word));
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/**
 * Ids of the books on sale that contain every word (each as the start of a word: "rocket"
 * finds "rockets"), best match first; none when no word can be searched.
 */
export async function searchBookIds(db: Db, text: string): Promise<number[]> {
  const words = searchWords(text);
  if (!words.length) return [];
  if (isMySql(db)) {
    const against = words.map((word) => `+${word}*`).join(' ');
    const match = 'MATCH (title, author, description) AGAINST (? IN BOOLEAN MODE)';
    const rows: { id: number }[] = await db('books')
      .select('id')
      .whereRaw(match, [against])
      .where('hidden', false)
      .orderByRaw(`${match} DESC, id`, [against]);
    return rows.map((row) => row.id);
  }
  const expression = words.map((word) => `"${word}"*`).join(' ');
  const rows: { id: number }[] = await db('books_search')
    .join('books', 'books.id', 'books_search.rowid')
    .select('books.id')
    .whereRaw('books_search MATCH ?', [expression])
    .where('books.hidden', false)
    .orderByRaw('books_search.rank, books.id');
  return rows.map((row) => row.id);
}
