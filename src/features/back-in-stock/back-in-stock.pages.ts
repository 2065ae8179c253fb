import { Router, type Request, type Response } from 'express';
import { clientAddress } from '../../web/auth.ts';
import { BadRequest, isClientError, NotFound } from '../../web/errors.ts';
import { errorProblems, refusal, zodRefusal, type Refusal } from '../../web/form-problems.ts';
import { bodyFields } from '../../web/validate.ts';
import { bookId } from '../catalog/catalog.schemas.ts';
import { BACK_IN_STOCK_MESSAGES as M, notifyRequest, unsubscribeRequest } from './back-in-stock.schemas.ts';
import type { BackInStock } from './back-in-stock.service.ts';

// POST /books/:id/notify        the book page's "Email me when it's back" form (no session needed)
// GET  /notify/unsubscribe      the link in the emails: a page with a button, changing nothing
//                               (mail scanners open links)
export function backInStockPages(backInStock: BackInStock): Router {
  const router = Router();

  router.post('/books/:id/notify', async (req, res) => {
    const id = bookId.safeParse(req.params.id);
    if (!id.success) throw new NotFound('Book Not Found');
    // What the parent typed comes back with any refusal, told as every form tells one.
    const email = bodyFields(req.body).email;
    const input = notifyRequest.safeParse(req.body);
    if (!input.success) {
      renderForm(res.status(400), id.data, email, zodRefusal({ form: NOTIFY_FORM, title: M.refused, error: input.error, ids: NOTIFY_IDS }));
      return;
    }
    let book: { title: string };
    try {
      book = await backInStock.request({ bookId: id.data, email: input.data.email }, clientAddress(req));
    } catch (err) {
      if (!isClientError(err) || err.status === 404) throw err;
      // Too many requests, or the book is on sale again: told beside the form's one field.
      const problems = errorProblems(err).map((p) => ({ ...p, field: p.field ?? 'email' }));
      renderForm(res.status(err.status), id.data, email, refusal({ form: NOTIFY_FORM, title: M.refused, problems, ids: NOTIFY_IDS }));
      return;
    }
    renderDone(res, id.data, { title: M.requested.title(book.title), text: M.requested.text });
  });

  router.get('/notify/unsubscribe', async (req, res) => {
    const { token } = tokenOf(req);
    const { title } = await backInStock.describe(token);
    res.render('back-in-stock/unsubscribe', { title: 'Stop this email', book: title, token });
  });

  return router;
}

/**
 * POST /notify/unsubscribe?token=...  the page's button, and the RFC 8058 one-click POST a mail
 * app sends from its own servers (no cookie, no form token, no Origin). Mounted before the
 * form-token check: the signed token in the link is the proof, and it can only cancel.
 */
export function oneClickUnsubscribe(backInStock: BackInStock): Router {
  const router = Router();
  router.post('/notify/unsubscribe', async (req, res) => {
    const { title } = await backInStock.cancel(tokenOf(req).token);
    res.render('back-in-stock/unsubscribed', { title: M.unsubscribed.title, text: M.unsubscribed.text, book: title });
  });
  return router;
}

function tokenOf(req: Request): { token: string } {
  const parsed = unsubscribeRequest.safeParse(req.query);
  if (!parsed.success) throw new BadRequest(M.badLink);
  return parsed.data;
}

/** The form's name (its summary is #notify-problems) and its one input. */
const NOTIFY_FORM = 'notify';
const NOTIFY_IDS = { email: 'notify-email' };

function renderForm(res: Response, bookId: number, email: unknown, problems: Refusal): void {
  res.render('back-in-stock/answer', {
    title: "Email me when it's back",
    bookId,
    problems,
    email: typeof email === 'string' ? email : '',
  });
}

function renderDone(res: Response, bookId: number, done: { title: string; text: string }): void {
  res.status(200).render('back-in-stock/answer', { title: done.title, bookId, done });
}
