import { Router, type Request, type Response } from 'express';
import { toDecimal } from '../../../lib/money.ts';
import { NotFound, type HttpError } from '../../../web/errors.ts';
import { withFormErrors } from '../../../web/form-errors.ts';
import { errorProblems, refusal, zodProblems, type FieldProblem, type Refusal } from '../../../web/form-problems.ts';
import { keepRefusal, takeRefusal, typedValues } from '../../../web/kept-refusal.ts';
import { bodyFields } from '../../../web/validate.ts';
import { queryWithFallback } from '../../../web/query-fallback.ts';
import { bookId } from '../../catalog/catalog.schemas.ts';
import { bookForm, bookListQuery, stockInput } from './books.schemas.ts';
import { BOOK_FIELDS, bookFormRows } from '../../catalog/book-fields.ts';
import { STATUS_LABELS, type BookAdmin } from './books.service.ts';
import { operatorId, operatorPages } from '../access/operator-access.ts';
import { pageHref } from '../../../lib/paging.ts';
import { lowStockThreshold } from '../settings/settings.ts';
import type { Db } from '../../../db.ts';

// GET  /admin/books               every book, hidden ones too; ?stock=low: those at or below the threshold
// GET  /admin/books/new           the empty form
// POST /admin/books               add a book
// GET  /admin/books/:id/edit      the form, filled
// POST /admin/books/:id           save the form
// POST /admin/books/:id/stock     the list's inline stock form
// POST /admin/books/:id/hide      take it off sale
// POST /admin/books/:id/unhide    put it back on sale
// A refused form comes back filled in, each message beside its field (400, as every form here);
// a refused stock form in the list goes back to the list, its message beside that book's field.
export function booksPages(books: BookAdmin, db: Db): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/books', async (req, res) => {
    const { data: query, notices } = queryWithFallback(bookListQuery, req.query, { stock: 'all books', page: 'the first page' });
    const threshold = await lowStockThreshold(db);
    const low = query.stock === 'low';
    const result = await books.list({ page: query.page, lowStock: low ? threshold : undefined });
    const filters = { stock: query.stock };
    const kept = takeRefusal(req);
    res.render('admin/books', {
      title: low ? 'Low stock' : 'Books',
      ...result,
      low,
      threshold,
      notices,
      ...(kept ? { problems: kept.problems, typed: { form: kept.form, values: kept.values } } : { typed: { form: '', values: {} } }),
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
    if (!parsed.success) return renderForm(res.status(400), { values: bodyFields(req.body), problems: zodProblems(parsed.error) });
    const input = parsed.data;
    await withFormErrors(
      async () => {
        const id = await books.create(input, operatorId(req));
        req.session.flash = { title: 'Book added', text: `"${input.title}" is in the catalogue.`, variant: 'success' };
        res.redirect(303, `/admin/books/${id}/edit`);
      },
      (err) => refused(res, err, { values: bodyFields(req.body) }),
    );
  });

  router.get('/admin/books/:id/edit', async (req, res) => {
    const book = await books.find(idOf(req));
    renderForm(res, { book, values: book.values });
  });

  router.post('/admin/books/:id', async (req, res) => {
    const book = await books.find(idOf(req));
    const parsed = bookForm.safeParse(req.body ?? {});
    if (!parsed.success) return renderForm(res.status(400), { book, values: bodyFields(req.body), problems: zodProblems(parsed.error) });
    const input = parsed.data;
    await withFormErrors(
      async () => {
        await books.update(book.id, input, operatorId(req));
        req.session.flash = { title: 'Book saved', text: `"${input.title}" is saved.`, variant: 'success' };
        res.redirect(303, `/admin/books/${book.id}/edit`);
      },
      (err) => refused(res, err, { book, values: bodyFields(req.body) }),
    );
  });

  router.post('/admin/books/:id/stock', async (req, res) => {
    const id = idOf(req);
    const back = returnTo(req);
    const parsed = stockInput.safeParse(req.body ?? {});
    const refused = (problems: FieldProblem[]) => {
      keepRefusal(req, {
        form: `stock-${id}`,
        title: 'Stock not changed',
        problems,
        ids: { stock: `stock-${id}` },
        values: typedValues(req.body, ['stock']),
      });
      // No fragment: a page opened at one skips autofocus, and the summary is to take the focus.
      res.redirect(303, back);
    };
    if (!parsed.success) return refused(zodProblems(parsed.error));
    await withFormErrors(
      async () => {
        await books.setStock(id, parsed.data.stock, operatorId(req));
        req.session.flash = { title: 'Stock saved', text: `${parsed.data.stock} on the shelf.`, variant: 'success' };
        res.redirect(303, back);
      },
      (err) => {
        // A book that is gone has no page to go back to: the error page says so.
        if (err.status === 404) throw err;
        refused(errorProblems(err).map((p) => ({ ...p, field: p.field ?? 'stock' })));
      },
    );
  });

  for (const [action, hidden] of [
    ['hide', true],
    ['unhide', false],
  ] as const) {
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
    problems?: FieldProblem[];
  }

  function renderForm(res: Response, { book, values, problems = [] }: FormState): void {
    const title = book ? `Edit "${book.title}"` : 'Add a book';
    const shown: Refusal | undefined = problems.length
      ? refusal({ form: 'book', title: book ? 'The book was not saved' : 'The book was not added', problems, ids: BOOK_FIELD_IDS })
      : undefined;
    res.render('admin/book-form', {
      title,
      book,
      values: displayValues(values),
      rows: bookFormRows(book),
      ...(shown ? { problems: shown } : {}),
      statusLabels: STATUS_LABELS,
    });
  }

  /** A refusal the database made (a duplicate ISBN) goes beside its field; a book that is gone is the error page's. */
  function refused(res: Response, err: HttpError, state: FormState): void {
    if (err.status === 404) throw err;
    renderForm(res.status(err.status), { ...state, problems: errorProblems(err).map((p) => ({ ...p, field: p.field ?? 'stock' })) });
  }

  return router;
}

/** The book form's inputs (views/admin/_field.eta names them book-<field>), in the form's order. */
const BOOK_FIELD_IDS = Object.fromEntries(BOOK_FIELDS.map((f) => [f.name, `book-${f.name}`]));

/** Typed values (cents, numbers) shown back in the form as the operator would type them. */
function displayValues(values: Record<string, unknown>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a form value is a string, a number or a repeated field's strings
    shown[key] = key === 'price' && typeof value === 'number' ? toDecimal(value) : String(value);
  }
  return shown;
}

/** Back to the list page the inline form was on (only a path under /admin/books). */
function returnTo(req: Request): string {
  const { back: asked } = bodyFields(req.body);
  const back = typeof asked === 'string' ? asked : '';
  return /^\/admin\/books(\?[\w=&%-]*)?$/.test(back) ? back : '/admin/books';
}

function idOf(req: Request): number {
  const id = bookId.safeParse(req.params.id);
  if (!id.success) throw new NotFound('Page Not Found');
  return id.data;
}
