import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { buildTestShop, type TestShop } from '../helpers/app.ts';
import { rawGet } from '../helpers/raw-http.ts';

// What the front door answers from memory (built files, anonymous catalogue pages) must be
// indistinguishable from what the app would send: same headers, same bytes.
let shop: TestShop;
let css: string;

beforeAll(async () => {
  shop = await buildTestShop();
  const page = (await rawGet(shop.app, '/books', { 'Accept-Encoding': 'identity' })).text();
  css = /<link rel="stylesheet" href="([^"]+\.css)">/.exec(page)![1]!;
});
afterAll(() => shop.close());

/** The headers that differ between two identical answers sent at different times. */
const lasting = ({ date: _date, connection: _c, 'keep-alive': _k, ...rest }: IncomingHttpHeaders) => rest;

describe('the front door', () => {
  it('answers a cached page with exactly the headers and bytes the app rendered it with', async () => {
    const rendered = await rawGet(shop.app, '/books/2', { 'Accept-Encoding': 'br' });
    const remembered = await rawGet(shop.app, '/books/2', { 'Accept-Encoding': 'br' });
    expect(rendered.status).toBe(200);
    expect(lasting(remembered.headers)).toEqual(lasting(rendered.headers));
    expect(remembered.body.equals(rendered.body)).toBe(true);
    expect(remembered.headers['content-security-policy']).toMatch(/default-src 'self'/);
  });

  it('sends a built file with the security headers of a page, cached for a year', async () => {
    const file = await rawGet(shop.app, css, { 'Accept-Encoding': 'br' });
    const page = await rawGet(shop.app, '/about');
    expect(file.status).toBe(200);
    expect(file.headers['content-encoding']).toBe('br');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const name of [
      'content-security-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
    ]) {
      expect(file.headers[name], name).toBe(page.headers[name]);
    }
  });

  it('sends a built file asked for with a query string (a cache-buster some tools add)', async () => {
    const file = await rawGet(shop.app, `${css}?v=2`, { 'Accept-Encoding': 'identity' });
    expect(file.status).toBe(200);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.text()).toContain('{');
  });

  it('answers a conditional request for a built file with 304 per encoding', async () => {
    const file = await rawGet(shop.app, css, { 'Accept-Encoding': 'gzip' });
    const again = await rawGet(shop.app, css, { 'Accept-Encoding': 'gzip', 'If-None-Match': file.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Another encoding is another representation: its ETag differs.
    const plain = await rawGet(shop.app, css, { 'Accept-Encoding': 'identity', 'If-None-Match': file.headers.etag! });
    expect(plain.status).toBe(200);
    expect(plain.headers.etag).not.toBe(file.headers.etag);
  });

  it('leaves names it has no file for to the app: a 404 page, never a file outside the build', async () => {
    for (const path of ['/assets/no-such-file.js', '/assets/..%2fpackage.json', '/assets/../package.json', '/assets/']) {
      const res = await rawGet(shop.app, path);
      expect(res.status, path).toBe(404);
      expect(res.text(), path).not.toContain('"name"');
    }
  });

  it('leaves writes to the app', async () => {
    // The app's own answer to a form posted at a file without a session: refused.
    const res = await supertest(shop.app).post(css).send('x=1');
    expect(res.status).toBe(403);
    expect(res.headers['cache-control'] ?? '').not.toMatch(/immutable/);
  });
});
