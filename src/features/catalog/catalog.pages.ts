import { Router } from 'express';
import { formatUsd } from '../../lib/money.ts';
import { NotFound } from '../../web/errors.ts';
import { COMING_SOON, type BookDto } from './book.dto.ts';
import { bookFinderQuery, bookId, type BookFinderQuery } from './catalog.schemas.ts';
import { AGE_BANDS, type BookShow, type BookSort } from './book-finder.rules.ts';
import { searchWords } from './book-search.ts';
import { parse } from '../../web/validate.ts';
import { renderPage } from '../../web/page-cache.ts';
import { refusal, type Refusal } from '../../web/form-problems.ts';
import { takeRefusal } from '../../web/kept-refusal.ts';
import type { CatalogService } from './catalog.service.ts';
import { bookJsonLd } from './book.seo.ts';
import { offerBadge } from './stock.ts';
import { offerQuantityChoices } from './per-title-limit.ts';
import { SHOWS } from './catalogue-visibility.ts';
import { offerWords } from './preorder.rules.ts';
import { absoluteCoverUrl } from './cover.ts';

// GET /books       the catalogue grid; ?q= searches it, ?age= keeps one age band, ?show=coming-soon
//                  keeps the forthcoming titles, ?sort= orders it
// GET /books/:id   one book
// Addresses that leave the page (JSON-LD, canonical, share image) are under publicUrl, the
// configured PUBLIC_URL, never the request's Host header.
export function catalogPages(catalog: CatalogService, log: { error(o: object, m: string): void }, publicUrl: string): Router {
  const router = Router();

  router.get('/books', async (req, res) => {
    const { query, notices } = finderQuery(req.query);
    const loaded = await Promise.all([catalog.findBooks(query), catalog.ageBands(query.age)]).catch((err: unknown) => {
      log.error({ err }, 'catalogue failed to load');
      return undefined;
    });
    const finder = {
      query,
      notices,
      ageBands: loaded?.[1] ?? AGE_BANDS,
      shows: SHOW_OPTIONS,
      sorts: SORT_CHOICES,
      unsearchable: query.q !== '' && !searchWords(query.q).length,
    };
    if (loaded) return renderPage(res, 'catalog/index', { title: 'Our Books', books: loaded[0], finder }, [SHOWS.list]);
    res.status(503).render('catalog/index', { title: 'Our Books', books: [], finder, loadFailed: true });
  });

  router.get('/books/:id', async (req, res) => {
    const id = bookId.safeParse(req.params.id);
    if (!id.success) throw new NotFound('Book Not Found');
    const book = await catalog.getBook(id.data).catch((err: unknown) => {
      throw err instanceof NotFound ? new NotFound('Book Not Found') : err;
    });
    const recommended = await catalog.recommendedFor(book.id);
    const offer = catalog.offerOf(book);
    const choices = offerQuantityChoices(offer);
    // Add to Cart refused without JavaScript (src/features/cart/cart.pages.ts) is told here, by its form.
    const kept = takeRefusal(req, (form) => form === `add-to-cart-${book.id}`);
    await renderPage(
      res,
      'catalog/show',
      {
        ...(kept ? { problems: choices.length ? kept.problems : unlinked(kept.problems), typedQuantity: kept.values.quantity } : {}),
        title: book.title,
        book,
        recommended,
        offer: offerWords(offer),
        stock: offerBadge(offer),
        quantityChoices: choices,
        price: formatUsd(book.priceCents),
        buyLinks: buyLinks(book),
        meta: {
          description: summary(book.description),
          image: book.imageUrl ? absoluteCoverUrl(publicUrl, book.imageUrl) : undefined,
          type: 'book',
          canonical: `${publicUrl}/books/${book.id}`,
          jsonLd: bookJsonLd(book, offer, publicUrl),
        },
      },
      [SHOWS.book(book.id), SHOWS.recommended(book.id)],
    );
  });

  return router;
}

/**
 * The catalogue's search, band and sort from the address. A value the finder cannot use (a
 * hand-edited or old link's sort, a band that does not exist, a search too long) is left out
 * and said in a notice above the books, rather than leaving the catalogue for an error page.
 */
function finderQuery(raw: Record<string, unknown>): { query: BookFinderQuery; notices: string[] } {
  const parsed = bookFinderQuery.safeParse(raw);
  if (parsed.success) return { query: parsed.data, notices: [] };
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  const kept = Object.fromEntries(Object.entries(raw).filter(([key]) => !bad.has(key)));
  const shown = (key: string) => `\u201c${String(raw[key]).slice(0, 40)}\u201d`;
  const notices = parsed.error.issues
    .filter((issue, i, all) => all.findIndex((other) => other.path[0] === issue.path[0]) === i)
    .map((issue) =>
      issue.path[0] === 'sort'
        ? `We can't sort by ${shown('sort')}, so the books are in our usual order.`
        : issue.path[0] === 'age'
          ? `There is no age band ${shown('age')}, so books for every age are shown.`
          : issue.path[0] === 'show'
            ? `We can't show only ${shown('show')}, so every book is shown.`
            : `${issue.message} All books are shown instead.`,
    );
  return { query: parse(bookFinderQuery, kept), notices };
}

/** The finder's "Show" menu: every book, or the titles still to come out. */
const SHOW_OPTIONS: ReadonlyArray<readonly [BookShow | '', string]> = [
  ['', 'All books'],
  ['coming-soon', 'Coming soon'],
];

const SORT_CHOICES: ReadonlyArray<readonly [BookSort | '', string]> = [
  ['', 'Our picks'],
  ['newest', 'Newest'],
  ['price-asc', 'Price: low to high'],
  ['price-desc', 'Price: high to low'],
  ['title', 'Title: A to Z'],
];

function buyLinks(book: BookDto) {
  return [
    { label: 'Buy Hardcover', url: book.amazonUrl, soon: 'hardcover coming soon' },
    { label: 'Buy Kindle Ebook', url: book.amazonKindleUrl, soon: 'Kindle ebook coming soon' },
  ]
    .filter((link) => link.url)
    .map((link) => ({ ...link, comingSoon: link.url === COMING_SOON }));
}

/** A book with nothing to buy or pre-order shows no quantity menu: its refusal points to no field. */
function unlinked(problems: Refusal): Refusal {
  return refusal({ form: problems.form, title: problems.title, problems: problems.items.map(({ message }) => ({ message })) });
}

function summary(text: string): string {
  return text.length > 155 ? `${text.slice(0, 152).trimEnd()}...` : text;
}
