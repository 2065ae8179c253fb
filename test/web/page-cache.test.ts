import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { pageCache, sendPage, type ShownState } from '../../src/web/page-cache.ts';

/** What the pages show, as the test sets it: each name's current value. */
function shownState(values: Record<string, number> = {}) {
  const state = {
    values,
    fails: false,
    shown(): Promise<ShownState> {
      if (state.fails) return Promise.reject(new Error('database away'));
      const now = { ...state.values };
      return Promise.resolve({ fingerprint: (shows) => shows.map((name) => `${name}=${now[name] ?? 0}`).join('|') });
    },
  };
  return state;
}

const html = (text: string, shows: string[] = ['list']) => ({ shows, text });

/** A tiny app behind the cache whose pages count how often they were rendered. */
function appWith(state = shownState(), limits?: { entries: number; bytes: number }) {
  const renders = new Map<string, number>();
  const app = express();
  app.use((_req, res, next) => {
    res.set('X-Frame-Options', 'SAMEORIGIN');
    next();
  });
  app.use(pageCache({ shown: () => state.shown(), sessionCookie: 'shop.sid', ...(limits ? { limits } : {}) }));
  app.use((req, _res, next) => {
    renders.set(req.path, (renders.get(req.path) ?? 0) + 1);
    next();
  });
  const page = (path: string, made: () => { text: string; shows: string[] }) =>
    app.get(path, async (_req, res) => {
      const { text, shows } = made();
      await sendPage(res, text, { shows });
    });
  page('/', () => html(`<p>home ${'x'.repeat(2000)}</p>`));
  page('/books', () => html('<p>books</p>'));
  app.get('/books/1', (_req, res) => sendPage(res.cookie('shop.sid', 'new'), '<p>a page that starts a session</p>', { shows: ['book:1'] }));
  page('/books/2', () => html('<form><input type="hidden" name="_csrf" value="t"></form>'));
  app.get('/books/3', (_req, res) => sendPage(res.status(404), '<p>Book Not Found</p>', { shows: ['book:3'] }));
  page('/books/4', () => html(`<p>book 4, price ${state.values.price4 ?? 0}</p>`, ['book:4']));
  app.get('/about', (_req, res) => sendPage(res, '<p>about</p>', { shows: [] }));
  app.get('/api/books', (_req, res) =>
    sendPage(res, JSON.stringify([{ id: 1, title: 'Moon' }]), { type: 'application/json; charset=utf-8', shows: ['exact-stock'] }),
  );
  return { app, renders, state };
}

describe('the page cache', () => {
  it('renders a page once, and again only when something it shows has changed', async () => {
    const { app, renders, state } = appWith(shownState({ list: 1 }));
    await supertest(app).get('/books').expect(200, '<p>books</p>');
    await supertest(app).get('/books').expect(200, '<p>books</p>');
    expect(renders.get('/books')).toBe(1);
    // A change the page does not show (another book's page): nothing to make again.
    state.values['book:4'] = 2;
    await supertest(app).get('/books').expect(200);
    expect(renders.get('/books')).toBe(1);
    state.values.list = 2;
    await supertest(app).get('/books').expect(200);
    expect(renders.get('/books')).toBe(2);
  });

  it('keys pages by their query too', async () => {
    const { app, renders } = appWith();
    await supertest(app).get('/books?page=1').expect(200);
    await supertest(app).get('/books?page=2').expect(200);
    expect(renders.get('/books')).toBe(2);
  });

  it('never keeps a response that sets a cookie', async () => {
    const { app, renders } = appWith();
    const first = await supertest(app).get('/books/1').expect(200);
    expect(first.headers['set-cookie']).toBeDefined();
    const second = await supertest(app).get('/books/1').expect(200);
    expect(second.headers['set-cookie']).toBeDefined();
    expect(renders.get('/books/1')).toBe(2);
  });

  it('never keeps a page that carries a form token', async () => {
    const { app, renders } = appWith();
    await supertest(app).get('/books/2').expect(200);
    await supertest(app).get('/books/2').expect(200);
    expect(renders.get('/books/2')).toBe(2);
  });

  it('never keeps an error page', async () => {
    const { app, renders } = appWith();
    await supertest(app).get('/books/3').expect(404);
    await supertest(app).get('/books/3').expect(404);
    expect(renders.get('/books/3')).toBe(2);
  });

  it('lets a visitor with a session cookie through to their own page', async () => {
    const { app, renders } = appWith();
    await supertest(app).get('/books').expect(200);
    const own = await supertest(app).get('/books').set('Cookie', 'theme=dark; shop.sid=s%3Aabc').expect(200);
    expect(own.headers.etag).toMatch(/^W\//);
    expect(renders.get('/books')).toBe(2);
  });

  it("keeps the catalogue's JSON, but not a query that picks books at random", async () => {
    const { app, renders } = appWith();
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
    const { app, renders } = appWith();
    await supertest(app).get('/about').expect(200);
    await supertest(app).get('/about').expect(200);
    expect(renders.get('/about')).toBe(2);
  });

  it('answers HEAD from the cache with headers only', async () => {
    const { app, renders } = appWith();
    const get = await supertest(app).get('/books').set('Accept-Encoding', 'identity').expect(200);
    const head = await supertest(app).head('/books').set('Accept-Encoding', 'identity').expect(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(String('<p>books</p>'.length));
    expect(renders.get('/books')).toBe(1);
  });

  it('forgets the least recently used page beyond its bounds', async () => {
    const { app, renders } = appWith(shownState(), { entries: 1, bytes: 1_000_000 });
    await supertest(app).get('/books').expect(200);
    await supertest(app).get('/').expect(200);
    await supertest(app).get('/books').expect(200);
    expect(renders.get('/books')).toBe(2);
  });

  it('keeps no page larger than its byte bound', async () => {
    const { app, renders } = appWith(shownState(), { entries: 10, bytes: 1000 });
    await supertest(app).get('/').expect(200);
    await supertest(app).get('/').expect(200);
    expect(renders.get('/')).toBe(2);
  });

  it('lets the route answer when the version cannot be read', async () => {
    const state = shownState();
    state.fails = true;
    const { app, renders } = appWith(state);
    await supertest(app).get('/books').expect(200, '<p>books</p>');
    expect(renders.get('/books')).toBe(1);
  });

  it('answers from memory after the security headers, and 304 to a matching ETag', async () => {
    const { app, renders } = appWith();
    await supertest(app).get('/books').expect(200);
    const hit = await supertest(app).get('/books').expect(200, '<p>books</p>');
    expect(renders.get('/books')).toBe(1);
    expect(hit.headers['x-frame-options']).toBe('SAMEORIGIN');
    await supertest(app).get('/books').set('If-None-Match', hit.headers.etag!).expect(304);
    expect(renders.get('/books')).toBe(1);
  });

  it('answers the page before while one request makes the new one, and makes it once', async () => {
    const state = shownState({ list: 1 });
    const app = express();
    let renders = 0;
    let release: () => void = () => {};
    app.use(pageCache({ shown: () => state.shown(), sessionCookie: 'shop.sid' }));
    app.get('/books', async (_req, res) => {
      renders++;
      // The second rendering waits until the test lets it finish.
      if (renders === 2) await new Promise<void>((resolve) => (release = resolve));
      await sendPage(res, `<p>books, edition ${renders}</p>`, { shows: ['list'] });
    });
    await supertest(app).get('/books').expect(200, '<p>books, edition 1</p>');
    state.values.list = 2;
    const renewing = supertest(app).get('/books');
    const renewed = renewing.then((res) => res.text);
    await new Promise((r) => setTimeout(r, 20));
    expect(renders).toBe(2);
    // Visitors arriving while it renders get the page before, at once, and render nothing.
    const meanwhile = await Promise.all(Array.from({ length: 5 }, () => supertest(app).get('/books').expect(200)));
    expect(meanwhile.map((res) => res.text)).toEqual(Array(5).fill('<p>books, edition 1</p>'));
    expect(renders).toBe(2);
    release();
    expect(await renewed).toBe('<p>books, edition 2</p>');
    await supertest(app).get('/books').expect(200, '<p>books, edition 2</p>');
    expect(renders).toBe(2);
  });

  it('renders a page nobody has asked for yet once, however many ask at once', async () => {
    const { app, renders } = appWith();
    const answers = await Promise.all(Array.from({ length: 8 }, () => supertest(app).get('/books').expect(200)));
    expect(answers.every((res) => res.text === '<p>books</p>')).toBe(true);
    expect(renders.get('/books')).toBe(1);
  });

  it('keeps the same ETag when a change leaves the page as it was', async () => {
    const { app, renders, state } = appWith(shownState({ 'book:4': 1 }));
    const first = await supertest(app).get('/books/4').set('Accept-Encoding', 'br').expect(200);
    state.values['book:4'] = 2;
    const second = await supertest(app).get('/books/4').set('Accept-Encoding', 'br').expect(200);
    expect(renders.get('/books/4')).toBe(2);
    expect(second.headers.etag).toBe(first.headers.etag);
    state.values.price4 = 5;
    state.values['book:4'] = 3;
    const third = await supertest(app).get('/books/4').set('Accept-Encoding', 'br').expect(200);
    expect(third.headers.etag).not.toBe(first.headers.etag);
    expect(third.headers['content-encoding']).toBe('br');
  });

  it('forgets a kept page once its route says it is gone', async () => {
    const state = shownState({ 'book:5': 1 });
    let gone = false;
    let renders = 0;
    const app = express();
    app.use(pageCache({ shown: () => state.shown(), sessionCookie: 'shop.sid' }));
    app.get('/books/5', async (_req, res) => {
      renders++;
      if (gone) return void res.status(404).send('<p>Book Not Found</p>');
      await sendPage(res, '<p>book 5</p>', { shows: ['book:5'] });
    });
    await supertest(app).get('/books/5').expect(200, '<p>book 5</p>');
    gone = true;
    state.values['book:5'] = 2;
    await supertest(app).get('/books/5').expect(404);
    // The page kept before is never answered again, whatever the catalogue says next.
    state.values['book:5'] = 1;
    await supertest(app).get('/books/5').expect(404);
    expect(renders).toBe(3);
  });

  it('answers the page it kept when the catalogue cannot be read', async () => {
    const { app, renders, state } = appWith();
    await supertest(app).get('/books').expect(200, '<p>books</p>');
    state.fails = true;
    await supertest(app).get('/books').expect(200, '<p>books</p>');
    expect(renders.get('/books')).toBe(1);
  });
});
