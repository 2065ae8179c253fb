import { Router } from 'express';
import { withinDeadline } from '../../lib/deadline.ts';
import type { CatalogService } from '../catalog/catalog.service.ts';

export interface ReadinessProbe {
  name: string;
  check(): Promise<void>;
}

// GET /healthz   the process is alive
// GET /readyz    the database, the session store and (with S3_BUCKET) the covers bucket answer
export function healthRoutes(probes: ReadinessProbe[]): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      probes.map(async (probe) => {
        try {
          await withinDeadline(probe.check(), 2000, () => new Error(`${probe.name} did not answer`));
          return [probe.name, 'ok'] as const;
        } catch {
          // A dependency down or too slow: what this answer reports (503), to a balancer that asks every few seconds.
          return [probe.name, 'unavailable'] as const;
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) });
  });

  return router;
}

// GET /robots.txt, /sitemap.xml
// Every address is under publicUrl (the configured PUBLIC_URL), never the request's Host header.
export function crawlerRoutes(catalog: CatalogService, publicUrl: string): Router {
  const router = Router();

  router.get('/robots.txt', (_req, res) => {
    // The guest checkout stays crawlable: without a cart a crawler sees only 'Return to Books',
    // and a page barred from indexing fails the SEO audit the shop is held to.
    res
      .type('text/plain')
      .send(
        [
          'User-agent: *',
          'Disallow: /dashboard',
          'Disallow: /admin',
          'Disallow: /api/',
          'Disallow: /authcheckout',
          'Disallow: /order-confirmation',
          '',
          `Sitemap: ${publicUrl}/sitemap.xml`,
          '',
        ].join('\n'),
      );
  });

  router.get('/sitemap.xml', async (_req, res) => {
    const books = await catalog.listBooks();
    const paths = [
      '/',
      '/books',
      '/about',
      '/contact',
      '/termsofuse',
      '/copyrighttrademark',
      '/privacy',
      ...books.map((b) => `/books/${b.id}`),
    ];
    const urls = paths.map((p) => `  <url><loc>${escapeXml(publicUrl + p)}</loc></url>`).join('\n');
    res
      .type('application/xml')
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`);
  });

  return router;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
