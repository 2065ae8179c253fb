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

// Where pages, the API and emails link an uploaded cover: the shop's own COVERS_URL, or
// S3_PUBLIC_URL (a CDN or the bucket's public address). Set once as the services are built,
// and read as each page is drawn, so changing S3_PUBLIC_URL moves every link at the next start.
let coversBase = COVERS_URL;

/** Links covers at `publicBase` (S3_PUBLIC_URL), or at the shop's own COVERS_URL when unset. */
export function linkCoversAt(publicBase: string | undefined): void {
  coversBase = publicBase ?? COVERS_URL;
}

/** Where browsers fetch an uploaded cover's file at one width. */
export function coverUrl(name: string, width: number): string {
  return `${coversBase}/${coverFileName(name, width)}`;
}

/** The shop's own address of an uploaded cover's file, as stored on the book (imageUrl) whatever the links say. */
export function servedCoverUrl(name: string, width: number): string {
  return `${COVERS_URL}/${coverFileName(name, width)}`;
}

/** A book's one cover address (the API, emails, share links): its largest uploaded copy, else imageUrl (a drawn cover), else null. */
export function coverSrc(book: CoverFields): string | null {
  const widths = storedWidths(book);
  return book.coverName && widths.length ? coverUrl(book.coverName, Math.max(...widths)) : book.imageUrl;
}

/** An address for another site (a share card, structured data): a relative one is put under the shop's origin. */
export function absoluteCoverUrl(origin: string, src: string): string {
  return /^https?:\/\//.test(src) ? src : `${origin}${src}`;
}

function storedWidths(book: Pick<CoverFields, 'coverWidths'>): number[] {
  return (book.coverWidths ?? '')
    .split(',')
    .map(Number)
    .filter((w) => Number.isInteger(w) && w > 0);
}

export function coverImage(book: CoverFields): CoverImage {
  const widths = storedWidths(book);
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
