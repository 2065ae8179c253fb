import { Router, type Request, type Response } from 'express';
import { assertCsrfToken } from '../../../web/csrf.ts';
import { HttpError, NotFound } from '../../../web/errors.ts';
import { withFormErrors } from '../../../web/form-errors.ts';
import { errorProblems, refusal } from '../../../web/form-problems.ts';
import { readMultipart } from '../../../web/multipart.ts';
import { bookId } from '../../catalog/catalog.schemas.ts';
import { COVER_MESSAGES, MAX_COVER_BYTES } from './cover-images.ts';
import type { CoverPage, Covers } from './covers.service.ts';
import { operatorId, operatorPages } from '../access/operator-access.ts';

// GET  /admin/books/:id/cover   the book's cover, and a form to upload a new one
// POST /admin/books/:id/cover   multipart: cover (a JPEG, PNG or WebP of 2 MB at most) and _csrf

/** The upload's path, whose multipart body carries its own CSRF token (checked below). */
export const COVER_UPLOAD_PATH = /^\/admin\/books\/[^/]+\/cover$/;

export function coverPages(covers: Covers): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/books/:id/cover', async (req, res) => {
    render(res, await covers.find(idOf(req)));
  });

  router.post('/admin/books/:id/cover', async (req, res) => {
    // Who is asking and which book, before a byte of the file is read.
    const page = await covers.find(idOf(req));
    await withFormErrors(
      async () => {
        const form = await readMultipart(req, {
          fileField: 'cover',
          maxFileBytes: MAX_COVER_BYTES,
          tooLargeMessage: COVER_MESSAGES.tooLarge,
        });
        req.body = form.fields;
        assertCsrfToken(req);
        if (!form.file) throw new HttpError(422, COVER_MESSAGES.missing);
        await covers.replace(page.bookId, form.file, operatorId(req));
        req.session.flash = { title: 'Cover updated', text: `Shoppers now see the new cover of ${page.title}.`, variant: 'success' };
        res.redirect(303, `/admin/books/${page.bookId}/cover`);
      },
      (err) => {
        // A refused file: the page again with the reason beside the field. Anything else (a
        // wrong CSRF token, a book gone) is the error page's.
        if (![400, 413, 422].includes(err.status)) throw err;
        // What is left of a refused upload is not worth reading.
        if (err.status === 413) res.set('Connection', 'close');
        render(res.status(err.status), page, err);
      },
    );
  });

  return router;
}

function render(res: Response, page: CoverPage, refused?: HttpError): void {
  res.render('admin/cover', {
    title: `Cover of ${page.title}`,
    book: page,
    maxMegabytes: MAX_COVER_BYTES / 1024 / 1024,
    // Every refusal here is about the file, whatever the service named.
    ...(refused
      ? {
          problems: refusal({
            form: 'cover',
            title: 'The cover was not changed',
            problems: errorProblems(refused).map((p) => ({ ...p, field: 'cover' })),
            ids: { cover: 'cover-file' },
          }),
        }
      : {}),
  });
}

function idOf(req: Request): number {
  const id = bookId.safeParse(req.params.id);
  if (!id.success) throw new NotFound('Page Not Found');
  return id.data;
}
