import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

describe('health', () => {
  it('GET /healthz says the process is alive', async () => {
    expect((await shop.browser().get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
  });

  it('GET /readyz checks the database and the session store', async () => {
    const res = await shop.browser().get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', sessions: 'ok' } });
  });

  it('GET /readyz answers 503 when the database is gone', async () => {
    const other = await buildTestShop({ seed: false });
    await other.db.destroy();
    const res = await other.browser().get('/readyz').expect(503);
    expect(res.body.checks.database).toBe('unavailable');
    await other.database.drop();
  });
});

describe('crawlers', () => {
  it('serves robots.txt pointing at the sitemap and keeping private pages out', async () => {
    const res = await shop
      .browser()
      .get('/robots.txt')
      .expect(200)
      .expect('content-type', /text\/plain/);
    expect(res.text).toContain('Disallow: /dashboard');
    expect(res.text).toContain(`Sitemap: ${shop.config.publicUrl}/sitemap.xml`);
  });

  it('lets crawlers reach the pages a parent lands on, the checkout included, and keeps private ones out', async () => {
    const res = await shop.browser().get('/robots.txt').expect(200);
    const disallowed = [...res.text.matchAll(/^Disallow: (\S+)$/gm)].map((m) => m[1]!);
    const blocks = (path: string) => disallowed.some((rule) => path.startsWith(rule));
    for (const path of ['/', '/books', '/books/1', '/login', '/checkout', '/simple-checkout', '/contact']) {
      expect(blocks(path), path).toBe(false);
    }
    for (const path of ['/dashboard', '/admin', '/api/books', '/authcheckout', '/order-confirmation']) {
      expect(blocks(path), path).toBe(true);
    }
  });

  it('lists every page and book in sitemap.xml', async () => {
    const res = await shop.browser().get('/sitemap.xml').expect(200).expect('content-type', /xml/);
    const text = res.text ?? res.body.toString();
    expect(text).toContain('/books/1</loc>');
    expect(text).toContain('/privacy</loc>');
  });
});
