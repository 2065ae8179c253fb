import { Router, type Request, type Response } from 'express';
import { toDecimal } from '../../lib/money.ts';
import { HttpError, NotFound } from '../../web/errors.ts';
import { parse } from '../../web/validate.ts';
import { bookId } from '../catalog/catalog.schemas.ts';
import { bookForm, bookListQuery, fieldErrors, stockInput, type BookField } from './books.schemas.ts';
import { STATUS_LABELS, type BookAdmin } from './books.service.ts';
import { operatorId, operatorPages } from './operator-access.ts';
import { pageHref } from './paging.ts';
import { lowStockThreshold } from './settings.ts';
import type { Db } from '../../db.ts';

// GET  /admin/books               every book, hidden ones too; ?stock=low: those at or below the threshold
// GET  /admin/books/new           the empty form
// POST /admin/books               add a book
// GET  /admin/books/:id/edit      the form, filled
// POST /admin/books/:id           save the form
// POST /admin/books/:id/stock     the list's inline stock form
// POST /admin/books/:id/hide      take it off sale
// POST /admin/books/:id/unhide    put it back on sale
// A refused form comes back filled in, each message beside its field (400, as every form here).
export function booksPages(books: BookAdmin, db: Db): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/books', async (req, res) => {
    const query = parse(bookListQuery, req.query);
    const threshold = await lowStockThreshold(db);
    const low = query.stock === 'low';
    const result = await books.list({ page: query.page, lowStock: low ? threshold : undefined });
    const filters = { stock: query.stock };
    res.render('admin/books', {
      title: low ? 'Low stock' : 'Books',
      ...result,
      low,
      threshold,
      statusLabels: STATUS_LABELS,
      back: req.originalUrl,
      previousHref: result.page > 1 ? pageHref('/admin/books', filters, result.page - 1) : null,
      nextHref: result.page < result.pageCount ? pageHref('/admin/books', filters, result.page + 1) : null,
    });
  });

  router.get('/admin/books/new', (_req, res) => {
    renderForm(res, { values: { publisher: 'Little Lantern Books', ageRange: '3-5', stock: '0' } });
  });

  router.post('/admin/books', async (req, res) => {
    const parsed = bookForm.safeParse(req.body ?? {});
    if (!parsed.success) return renderForm(res.status(400), { values: req.body ?? {}, errors: fieldErrors(parsed.error) });
    try {
      const id = await books.create(parsed.data, operatorId(req));
      req.session.flash = { title: 'Book added', text: `"${parsed.data.title}" is in the catalogue.`, variant: 'success' };
      res.redirect(303, `/admin/books/${id}/edit`);
    } catch (err) {
      refused(res, err, { values: req.body });
    }
  });

  router.get('/admin/books/:id/edit', async (req, res) => {
    const book = await books.find(idOf(req));
    renderForm(res, { book, values: book.values });
  });

  router.post('/admin/books/:id', async (req, res) => {
    const book = await books.find(idOf(req));
    const parsed = bookForm.safeParse(req.body ?? {});
    if (!parsed.success) return renderForm(res.status(400), { book, values: req.body ?? {}, errors: fieldErrors(parsed.error) });
    try {
      await books.update(book.id, parsed.data, operatorId(req));
      req.session.flash = { title: 'Book saved', text: `"${parsed.data.title}" is saved.`, variant: 'success' };
      res.redirect(303, `/admin/books/${book.id}/edit`);
    } catch (err) {
      refused(res, err, { book, values: req.body });
    }
  });

  router.post('/admin/books/:id/stock', async (req, res) => {
    const id = idOf(req);
    const back = returnTo(req);
    const parsed = stockInput.safeParse(req.body ?? {});
    try {
      if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]!.message);
      await books.setStock(id, parsed.data.stock, operatorId(req));
      req.session.flash = { title: 'Stock saved', text: `${parsed.data.stock} on the shelf.`, variant: 'success' };
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500 || err.status === 404) throw err;
      req.session.flash = { title: 'Stock not changed', text: err.message, variant: 'error' };
    }
    res.redirect(303, back);
  });

  for (const [action, hidden] of [['hide', true], ['unhide', false]] as const) {
    router.post(`/admin/books/:id/${action}`, async (req, res) => {
      const id = idOf(req);
      await books.setHidden(id, hidden, operatorId(req));
      req.session.flash = hidden
        ? { title: 'Book hidden', text: 'Shoppers no longer see it; its orders are unchanged.', variant: 'success' }
        : { title: 'Book on sale again', text: 'Shoppers can see it and buy it.', variant: 'success' };
      res.redirect(303, `/admin/books/${id}/edit`);
    });
  }

  interface FormState {
    book?: Awaited<ReturnType<BookAdmin['find']>>;
    values: Record<string, unknown>;
    errors?: Partial<Record<BookField, string>>;
  }

  function renderForm(res: Response, { book, values, errors = {} }: FormState): void {
    const title = book ? `Edit "${book.title}"` : 'Add a book';
    res.render('admin/book-form', { title, book, values: displayValues(values), errors, statusLabels: STATUS_LABELS });
  }

  /** A refusal the database made (a duplicate ISBN) goes beside its field; anything else is not the form's. */
  function refused(res: Response, err: unknown, state: FormState): void {
    const field = err instanceof HttpError ? (err.details.field as BookField | undefined) : undefined;
    if (err instanceof HttpError && err.status < 500 && err.status !== 404) {
      return renderForm(res.status(err.status), { ...state, errors: { [field ?? 'stock']: err.message } });
    }
    throw err;
  }

  return router;
}

/** Typed values (cents, numbers) shown back in the form as the operator would type them. */
function displayValues(values: Record<string, unknown>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    shown[key] = key === 'price' && typeof value === 'number' ? toDecimal(value) : String(value);
  }
  return shown;
}

/** Back to the list page the inline form was on (only a path under /admin/books). */
function returnTo(req: Request): string {
  const back = typeof req.body?.back === 'string' ? req.body.back : '';
  return /^\/admin\/books(\?[\w=&%-]*)?$/.test(back) ? back : '/admin/books';
}

function idOf(req: Request): number {
  const id = bookId.safeParse(req.params.id);
  if (!id.success) throw new NotFound('Page Not Found');
  return id.data;
}
