import { Router } from 'express';
import { formatUsd } from '../../lib/money.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { SHOWS } from '../catalog/catalogue-visibility.ts';
import { renderPage } from '../../web/page-cache.ts';
import { FREE_SHIPPING_THRESHOLD_CENTS } from '../pricing/constants.ts';

// GET /                    home
// GET /about               company story
// GET /termsofuse, /copyrighttrademark, /privacy   legal pages
export function sitePages(catalog: CatalogService, log: { error(o: object, m: string): void }): Router {
  const router = Router();

  router.get('/', async (_req, res) => {
    const freeShippingThreshold = formatUsd(FREE_SHIPPING_THRESHOLD_CENTS);
    // The banner's count comes from the catalogue so it never drifts from what /books lists.
    const catalogue = await Promise.all([catalog.listBooks({ limit: 4 }), catalog.countBooks()]).catch((err: unknown) => {
      log.error({ err }, 'catalogue failed to load');
      return undefined;
    });
    if (catalogue) {
      const [featured, bookCount] = catalogue;
      return renderPage(res, 'pages/home', { featured, bookCount, freeShippingThreshold }, [SHOWS.list]);
    }
    // The home page without its books, and never kept: the next visitor's gets them again.
    res.render('pages/home', { featured: [], bookCount: null, freeShippingThreshold });
  });

  router.get('/about', (_req, res) => res.render('pages/about', { title: 'About Us' }));
  router.get('/termsofuse', (_req, res) => res.render('legal/termsofuse', { title: 'Terms of Use' }));
  router.get('/copyrighttrademark', (_req, res) => res.render('legal/copyrighttrademark', { title: 'Copyright and Trademark Policy' }));
  router.get('/privacy', (_req, res) => res.render('legal/privacy', { title: 'Privacy Policy' }));

  return router;
}
