import path from 'node:path';
import type { Db } from '../../../db.ts';
import { Book } from '../../../models/Book.ts';
import { NotFound } from '../../../web/errors.ts';
import { bumpCatalogueVersion } from '../../catalog/catalogue-version.ts';
import { coverImage, coverUrl, type CoverImage } from '../../catalog/cover.ts';
import { writeAudit } from '../../../models/AuditEntry.ts';
import { storeCover } from './cover-images.ts';

export interface CoverPage {
  bookId: number;
  title: string;
  cover: CoverImage;
}

/** The covers folder of the uploads directory: the files behind COVERS_URL. */
export function coversDir(uploadsDir: string): string {
  return path.join(uploadsDir, 'covers');
}

// A book's cover. The files go into the shared uploads directory first (named by the upload's
// hash, so writing them twice is harmless); the book then points at them in one transaction
// with the catalogue version and the audit entry, so shoppers see the new cover at once.
export function createCovers({ db, uploadsDir }: { db: Db; uploadsDir: string }) {
  const dir = coversDir(uploadsDir);

  async function find(bookId: number): Promise<CoverPage> {
    const book = await Book.query(db).findById(bookId);
    if (!book) throw new NotFound('Page Not Found');
    return { bookId: book.id, title: book.title, cover: coverImage(book) };
  }

  return {
    find,

    async replace(bookId: number, bytes: Buffer, actorId: number): Promise<void> {
      // No files for a book that does not exist.
      await find(bookId);
      const stored = await storeCover(bytes, dir);
      await db.transaction(async (trx) => {
        const book = await Book.query(trx).findById(bookId).forUpdate();
        if (!book) throw new NotFound('Page Not Found');
        const after = {
          // The single address the API, emails and share links use: the largest copy.
          imageUrl: coverUrl(stored.name, Math.max(...stored.widths)),
          coverName: stored.name,
          coverWidth: stored.width,
          coverHeight: stored.height,
          coverWidths: stored.widths.join(','),
        };
        await Book.query(trx).findById(bookId).patch(after);
        await bumpCatalogueVersion(trx);
        const before = { bookId, imageUrl: book.imageUrl, coverName: book.coverName };
        await writeAudit(trx, { actorId, action: 'cover.replaced', before, after: { bookId, ...after } });
      });
    },
  };
}

export type Covers = ReturnType<typeof createCovers>;
