import type { Book } from '../../models/Book.ts';

/** Where uploaded covers are served from (the uploads directory's covers/ folder). */
export const COVERS_URL = '/uploads/covers';
export const PLACEHOLDER_COVER = '/images/placeholder-cover.svg';
// The seeded SVG covers and the placeholder are all drawn on a 600x900 canvas.
const DRAWN_COVER = { width: 600, height: 900 };

/** What an <img> needs to show a book's cover without shifting the page as it loads. */
export interface CoverImage {
  src: string;
  /** "…-160.webp 160w, …-320.webp 320w": null for a single drawn (SVG) cover. */
  srcset: string | null;
  width: number;
  height: number;
}

type CoverFields = Pick<Book, 'imageUrl' | 'coverName' | 'coverWidth' | 'coverHeight' | 'coverWidths'>;

/** An uploaded cover's file at one width: the name carries the upload's hash, so it never changes. */
export function coverFileName(name: string, width: number): string {
  return `${name}-${width}.webp`;
}

export function coverUrl(name: string, width: number): string {
  return `${COVERS_URL}/${coverFileName(name, width)}`;
}

export function coverImage(book: CoverFields): CoverImage {
  const widths = (book.coverWidths ?? '')
    .split(',')
    .map(Number)
    .filter((w) => Number.isInteger(w) && w > 0);
  if (!book.coverName || !book.coverWidth || !book.coverHeight || !widths.length) {
    return { src: book.imageUrl ?? PLACEHOLDER_COVER, srcset: null, ...DRAWN_COVER };
  }
  const name = book.coverName;
  return {
    src: coverUrl(name, Math.max(...widths)),
    srcset: widths.map((w) => `${coverUrl(name, w)} ${w}w`).join(', '),
    width: book.coverWidth,
    height: book.coverHeight,
  };
}
