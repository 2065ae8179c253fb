import { Router } from 'express';
import { formatUsd } from '../../lib/money.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';
import { renderPage } from '../../web/page-cache.ts';
import { FREE_SHIPPING_THRESHOLD_CENTS } from '../pricing/constants.ts';

// GET /                    home
// GET /about               company story
// GET /termsofuse, /copyrighttrademark, /privacy   legal pages
export function sitePages(catalog: CatalogService): Router {
  const router = Router();

  router.get('/', async (_req, res) => {
    // The banner's count comes from the catalogue so it never drifts from what /books lists.
    const [featured, bookCount] = await Promise.all([
      catalog.listBooks({ limit: 4 }).catch(() => []),
      catalog.countBooks().catch(() => null),
    ]);
    await renderPage(res, 'pages/home', { featured, bookCount, freeShippingThreshold: formatUsd(FREE_SHIPPING_THRESHOLD_CENTS) });
  });

  router.get('/about', (_req, res) => res.render('pages/about', { title: 'About Us' }));
  router.get('/termsofuse', (_req, res) => res.render('legal/termsofuse', { title: 'Terms of Use' }));
  router.get('/copyrighttrademark', (_req, res) => res.render('legal/copyrighttrademark', { title: 'Copyright and Trademark Policy' }));
  router.get('/privacy', (_req, res) => res.render('legal/privacy', { title: 'Privacy Policy' }));

  return router;
}
