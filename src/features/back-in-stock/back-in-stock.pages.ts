import { Router, type Request, type Response } from 'express';
import { clientAddress } from '../../web/auth.ts';
import { BadRequest, HttpError, NotFound } from '../../web/errors.ts';
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
    const input = notifyRequest.safeParse(req.body);
    if (!input.success) {
      renderAnswer(res, 400, { bookId: id.data, problem: input.error.issues[0]?.message ?? M.badLink, email: bodyFields(req.body).email });
      return;
    }
    let book: { title: string };
    try {
      book = await backInStock.request({ bookId: id.data, email: input.data.email }, clientAddress(req));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status === 404) throw err;
      renderAnswer(res, err.status, { bookId: id.data, problem: err.message });
      return;
    }
    renderAnswer(res, 200, { bookId: id.data, done: { title: M.requested.title(book.title), text: M.requested.text } });
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

function renderAnswer(
  res: Response,
  status: number,
  answer: { bookId: number; done?: { title: string; text: string }; problem?: string; email?: unknown },
): void {
  res.status(status).render('back-in-stock/answer', {
    title: answer.done ? answer.done.title : "Email me when it's back",
    status,
    bookId: answer.bookId,
    done: answer.done,
    problem: answer.problem,
    email: typeof answer.email === 'string' ? answer.email : '',
  });
}
