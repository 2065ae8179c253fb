import type { Db } from '../../../db.ts';
import type { Logger } from '../../../log.ts';
import { Book } from '../../../models/Book.ts';
import { NotFound } from '../../../web/errors.ts';
import { bumpCatalogueVersion } from '../../catalog/catalogue-version.ts';
import { coverFileName, coverImage, servedCoverUrl, type CoverImage } from '../../catalog/cover.ts';
import type { CoverStore } from '../../covers/cover-store.ts';
import { writeAudit } from '../../../models/AuditEntry.ts';
import { CoverNotStored, storeCover } from './cover-images.ts';

export { coversDir } from '../../covers/disk-store.ts';

export interface CoverPage {
  bookId: number;
  title: string;
  cover: CoverImage;
}

// A book's cover. Every width goes into the store first (named by the upload's hash, so writing
// them twice is harmless); only then does the book point at them, in one transaction with the
// catalogue version and the audit entry, so shoppers see the new cover at once and never a
// link to a file that is not there. The cover it replaces is deleted after that commit, unless
// another book shows the same picture. Hiding a book leaves its cover alone: it comes back
// with the book.
export function createCovers({ db, store, log }: { db: Db; store: CoverStore; log: Logger }) {
  async function find(bookId: number): Promise<CoverPage> {
    const book = await Book.query(db).findById(bookId);
    if (!book) throw new NotFound('Page Not Found');
    return { bookId: book.id, title: book.title, cover: coverImage(book) };
  }

  /** Deletes a cover's files when no book points at them; a failure leaves unlinked files, which is logged. */
  async function removeIfUnused(name: string, files: string[]): Promise<void> {
    try {
      if (await Book.query(db).findOne({ coverName: name })) return;
      await store.remove(files);
    } catch (err) {
      log.warn({ err, coverName: name }, 'could not delete the files of a cover no book shows; they take space but nothing links them');
    }
  }

  return {
    find,

    async replace(bookId: number, bytes: Buffer, actorId: number): Promise<void> {
      // No files for a book that does not exist.
      await find(bookId);
      const stored = await storeCover(bytes, store).catch(async (err: unknown) => {
        // Some widths may be written: nothing links them, so they go again unless a book shows them.
        if (err instanceof CoverNotStored) await removeIfUnused(err.coverName, err.files);
        throw err;
      });
      const before = await db.transaction(async (trx) => {
        const book = await Book.query(trx).findById(bookId).forUpdate();
        if (!book) throw new NotFound('Page Not Found');
        const after = {
          // The shop's own address of the largest copy; pages, the API and emails work theirs
          // out from coverName and coverWidths as they are drawn (cover.ts, coverSrc).
          imageUrl: servedCoverUrl(stored.name, Math.max(...stored.widths)),
          coverName: stored.name,
          coverWidth: stored.width,
          coverHeight: stored.height,
          coverWidths: stored.widths.join(','),
        };
        await Book.query(trx).findById(bookId).patch(after);
        await bumpCatalogueVersion(trx);
        await writeAudit(trx, {
          actorId,
          action: 'cover.replaced',
          before: { bookId, imageUrl: book.imageUrl, coverName: book.coverName },
          after: { bookId, ...after },
        });
        return book;
      });
      if (before.coverName && before.coverName !== stored.name) {
        const widths = (before.coverWidths ?? '').split(',').map(Number).filter(Boolean);
        await removeIfUnused(
          before.coverName,
          widths.map((w) => coverFileName(before.coverName!, w)),
        );
      }
    },
  };
}

export type Covers = ReturnType<typeof createCovers>;
