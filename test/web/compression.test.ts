import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../helpers/app.ts';
import { Buyer } from '../helpers/checkout.ts';
import { rawGet, type RawResponse } from '../helpers/raw-http.ts';

// Every text response comes back compressed when the client accepts it, and decompresses to
// exactly the bytes sent to a client that does not.
let shop: TestShop;
let cookie: string;
const paths: Record<string, string> = {};

beforeAll(async () => {
  shop = await buildTestShop();
  const buyer = new Buyer(shop);
  await buyer.add(1, 2);
  const session = await buyer.agent.get('/books').expect(200);
  cookie = String(session.request.cookies);
  const page = (await rawGet(shop.app, '/books', { 'Accept-Encoding': 'identity' })).text();
  paths.css = /<link rel="stylesheet" href="([^"]+\.css)">/.exec(page)![1]!;
  paths.js = /<script type="module" src="([^"]+\.js)">/.exec(page)![1]!;
  paths.cover = /src="(\/covers\/[^"]+\.svg)"/.exec(page)![1]!;
});
afterAll(() => shop.close());

const get = (path: string, encoding: string, headers: Record<string, string> = {}) =>
  rawGet(shop.app, path, { 'Accept-Encoding': encoding, ...headers });

async function expectCompressed(path: string, type: RegExp, headers: Record<string, string> = {}): Promise<RawResponse> {
  const plain = await get(path, 'identity', headers);
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.headers['content-type']).toMatch(type);
  for (const encoding of ['br', 'gzip']) {
    const packed = await get(path, encoding, headers);
    expect(packed.status, `${path} as ${encoding}`).toBe(200);
    expect(packed.headers['content-encoding'], `${path} as ${encoding}`).toBe(encoding);
    expect(packed.headers['content-type']).toBe(plain.headers['content-type']);
    expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
    expect(packed.body.length).toBeLessThan(plain.body.length);
    expect(packed.text()).toBe(plain.text());
  }
  return plain;
}

describe('compression of every text response', () => {
  it('the stylesheet, precompressed, still cached for a year', async () => {
    const plain = await expectCompressed(paths.css!, /^text\/css/);
    const packed = await get(paths.css!, 'br');
    expect(packed.headers['cache-control']).toMatch(/immutable/);
    expect(plain.headers['cache-control']).toMatch(/immutable/);
  });

  it('the page script', async () => {
    await expectCompressed(paths.js!, /javascript/);
  });

  it('an SVG cover', async () => {
    await expectCompressed(paths.cover!, /^image\/svg\+xml/);
  });

  it('the anonymous catalogue page', async () => {
    await expectCompressed('/books', /^text\/html/);
  });

  it('a page for a visitor with a session', async () => {
    const plain = await expectCompressed('/books', /^text\/html/, { Cookie: cookie });
    expect(plain.text()).toContain('aria-label="Shopping cart, 2 items"');
  });

  it('a page that is never cached', async () => {
    await expectCompressed('/about', /^text\/html/);
  });

  it('JSON from the API', async () => {
    await expectCompressed('/api/books', /^application\/json/);
  });

  it('the sitemap', async () => {
    // Each request here reaches a new port: one Host keeps the addresses in it the same.
    await expectCompressed('/sitemap.xml', /^application\/xml/, { Host: 'shop.test' });
  });

  it('leaves a body under a kilobyte as it is (robots.txt): compressing it saves nothing', async () => {
    const res = await get('/robots.txt', 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.length).toBeLessThan(1024);
  });

  it('answers a conditional request for a compressed API response with 304', async () => {
    const first = await get('/api/books', 'gzip');
    const again = await get('/api/books', 'gzip', { 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
  });
});
