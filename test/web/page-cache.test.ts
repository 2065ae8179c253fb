import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import type { CatalogueWatch } from '../../src/features/catalog/catalogue-watch.ts';
import { pageCache, sendPage } from '../../src/web/page-cache.ts';

/** A catalogue whose version the test sets. */
function fixedWatch(version = 1): CatalogueWatch & { version: number } {
  return {
    version,
    current() {
      return Promise.resolve(this.version);
    },
    onChange() {},
  };
}

/** A tiny app behind the cache whose pages count how often they were rendered. */
function appWith(watch: CatalogueWatch, limits?: { entries: number; bytes: number }) {
  const renders = new Map<string, number>();
  const app = express();
  app.use((_req, res, next) => {
    res.set('X-Frame-Options', 'SAMEORIGIN');
    next();
  });
  app.use(pageCache({ watch, sessionCookie: 'shop.sid', ...(limits ? { limits } : {}) }));
  app.use((req, _res, next) => {
    renders.set(req.path, (renders.get(req.path) ?? 0) + 1);
    next();
  });
  app.get('/', (_req, res) => sendPage(res, `<p>home ${'x'.repeat(2000)}</p>`));
  app.get('/books', (_req, res) => sendPage(res, '<p>books</p>'));
  app.get('/books/1', (_req, res) => sendPage(res.cookie('shop.sid', 'new'), '<p>a page that starts a session</p>'));
  app.get('/books/2', (_req, res) => sendPage(res, '<form><input type="hidden" name="_csrf" value="t"></form>'));
  app.get('/books/3', (_req, res) => sendPage(res.status(404), '<p>Book Not Found</p>'));
  app.get('/about', (_req, res) => sendPage(res, '<p>about</p>'));
  app.get('/api/books', (_req, res) => sendPage(res, JSON.stringify([{ id: 1, title: 'Moon' }]), 'application/json; charset=utf-8'));
  return { app, renders };
}

describe('the page cache', () => {
  it('renders a page once per catalogue version', async () => {
    const watch = fixedWatch();
    const { app, renders } = appWith(watch);
    await supertest(app).get('/books').expect(200, '<p>books</p>');
    await supertest(app).get('/books').expect(200, '<p>books</p>');
    expect(renders.get('/books')).toBe(1);
    watch.version = 2;
    await supertest(app).get('/books').expect(200);
    expect(renders.get('/books')).toBe(2);
  });

  it('keys pages by their query too', async () => {
    const { app, renders } = appWith(fixedWatch());
    await supertest(app).get('/books?page=1').expect(200);
    await supertest(app).get('/books?page=2').expect(200);
    expect(renders.get('/books')).toBe(2);
  });

  it('never keeps a response that sets a cookie', async () => {
    const { app, renders } = appWith(fixedWatch());
    const first = await supertest(app).get('/books/1').expect(200);
    expect(first.headers['set-cookie']).toBeDefined();
    const second = await supertest(app).get('/books/1').expect(200);
    expect(second.headers['set-cookie']).toBeDefined();
    expect(renders.get('/books/1')).toBe(2);
  });

  it('never keeps a page that carries a form token', async () => {
    const { app, renders } = appWith(fixedWatch());
    await supertest(app).get('/books/2').expect(200);
    await supertest(app).get('/books/2').expect(200);
    expect(renders.get('/books/2')).toBe(2);
  });

  it('never keeps an error page', async () => {
    const { app, renders } = appWith(fixedWatch());
    await supertest(app).get('/books/3').expect(404);
    await supertest(app).get('/books/3').expect(404);
    expect(renders.get('/books/3')).toBe(2);
  });

  it('lets a visitor with a session cookie through to their own page', async () => {
    const { app, renders } = appWith(fixedWatch());
    await supertest(app).get('/books').expect(200);
    const own = await supertest(app).get('/books').set('Cookie', 'theme=dark; shop.sid=s%3Aabc').expect(200);
    expect(own.headers.etag).toMatch(/^W\//);
    expect(renders.get('/books')).toBe(2);
  });

  it("keeps the catalogue's JSON, but not a query that picks books at random", async () => {
    const { app, renders } = appWith(fixedWatch());
    for (let i = 0; i < 2; i++) {
      const res = await supertest(app).get('/api/books').expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual([{ id: 1, title: 'Moon' }]);
    }
    expect(renders.get('/api/books')).toBe(1);
    await supertest(app).get('/api/books?limit=3&random=true').expect(200);
    await supertest(app).get('/api/books?limit=3&random=true').expect(200);
    expect(renders.get('/api/books')).toBe(3);
  });

  it('caches only the catalogue pages', async () => {
    const { app, renders } = appWith(fixedWatch());
    await supertest(app).get('/about').expect(200);
    await supertest(app).get('/about').expect(200);
    expect(renders.get('/about')).toBe(2);
  });

  it('answers HEAD from the cache with headers only', async () => {
    const { app, renders } = appWith(fixedWatch());
    const get = await supertest(app).get('/books').set('Accept-Encoding', 'identity').expect(200);
    const head = await supertest(app).head('/books').set('Accept-Encoding', 'identity').expect(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(String('<p>books</p>'.length));
    expect(renders.get('/books')).toBe(1);
  });

  it('forgets the least recently used page beyond its bounds', async () => {
    const { app, renders } = appWith(fixedWatch(), { entries: 1, bytes: 1_000_000 });
    await supertest(app).get('/books').expect(200);
    await supertest(app).get('/').expect(200);
    await supertest(app).get('/books').expect(200);
    expect(renders.get('/books')).toBe(2);
  });

  it('keeps no page larger than its byte bound', async () => {
    const { app, renders } = appWith(fixedWatch(), { entries: 10, bytes: 1000 });
    await supertest(app).get('/').expect(200);
    await supertest(app).get('/').expect(200);
    expect(renders.get('/')).toBe(2);
  });

  it('lets the route answer when the version cannot be read', async () => {
    const { app, renders } = appWith({ current: () => Promise.reject(new Error('database away')), onChange() {} });
    await supertest(app).get('/books').expect(200, '<p>books</p>');
    expect(renders.get('/books')).toBe(1);
  });

  it('answers from memory after the security headers, and 304 to a matching ETag', async () => {
    const { app, renders } = appWith(fixedWatch());
    await supertest(app).get('/books').expect(200);
    const hit = await supertest(app).get('/books').expect(200, '<p>books</p>');
    expect(renders.get('/books')).toBe(1);
    expect(hit.headers['x-frame-options']).toBe('SAMEORIGIN');
    await supertest(app).get('/books').set('If-None-Match', hit.headers.etag!).expect(304);
    expect(renders.get('/books')).toBe(1);
  });
});
