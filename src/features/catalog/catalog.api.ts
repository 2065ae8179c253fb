import { Router } from 'express';
import { parse } from '../../web/validate.ts';
import { sendPage } from '../../web/page-cache.ts';
import { bookId, bookListQuery } from './catalog.schemas.ts';
import type { CatalogService } from './catalog.service.ts';
import { SHOWS } from './catalogue-visibility.ts';

// GET /api/books                                    all books
// GET /api/books?exclude={id}&limit=3&random=true   recommendations
// GET /api/books/:id                                one book
export function catalogApi(catalog: CatalogService): Router {
  const router = Router();

  router.get('/books', async (req, res) => {
    // The same for every visitor until the catalogue changes: revalidated, never stored blind.
    res.set('Cache-Control', 'no-cache');
    const books = await catalog.listBooks(parse(bookListQuery, req.query));
    await sendPage(res, JSON.stringify(books), { type: 'application/json; charset=utf-8', shows: [SHOWS.exactStock] });
  });

  router.get('/books/:id', async (req, res) => {
    res.json(await catalog.getBook(parse(bookId, req.params.id)));
  });

  return router;
}
