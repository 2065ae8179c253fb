import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';

// Links that leave the page (search engines, shared links) name the shop's configured
// address; a request's Host header is whatever the sender wrote.
const PUBLIC_URL = 'https://shop.littlelanternbooks.example';

function jsonLd(html: string): { url: string; image: string; offers: { url: string } } {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('page has no JSON-LD');
  return JSON.parse(match[1]);
}

function canonical(html: string): string | undefined {
  return /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1];
}

describe.each([
  ['PUBLIC_URL set', { PUBLIC_URL: `${PUBLIC_URL}/` }, PUBLIC_URL],
  ['PUBLIC_URL unset (development): the documented default', { PORT: '3100' }, 'http://localhost:3100'],
])('with %s', (_name, env, base) => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await buildTestShop({ env });
  });
  afterAll(() => shop.close());

  it("a book page's JSON-LD, canonical link and share image ignore the Host header", async () => {
    const res = await shop.browser().get('/books/1').set('host', 'evil.example').set('x-forwarded-proto', 'https').expect(200);
    expect(res.text).not.toContain('evil.example');
    const data = jsonLd(res.text);
    expect(data.url).toBe(`${base}/books/1`);
    expect(data.offers.url).toBe(`${base}/books/1`);
    expect(data.image).toMatch(new RegExp(`^${base}/`));
    expect(canonical(res.text)).toBe(`${base}/books/1`);
    expect(res.text).toContain(`<meta property="og:url" content="${base}/books/1">`);
    expect(res.text).toMatch(new RegExp(`<meta property="og:image" content="${base}/`));
  });

  it('the sitemap and robots.txt ignore the Host header', async () => {
    const sitemap = await shop.browser().get('/sitemap.xml').set('host', 'evil.example').expect(200);
    const text = sitemap.text ?? sitemap.body.toString();
    expect(text).not.toContain('evil.example');
    expect(text).toContain(`<loc>${base}/books/1</loc>`);
    expect(text).toContain(`<loc>${base}/</loc>`);
    const robots = await shop.browser().get('/robots.txt').set('host', 'evil.example').expect(200);
    expect(robots.text).toContain(`Sitemap: ${base}/sitemap.xml`);
  });
});
