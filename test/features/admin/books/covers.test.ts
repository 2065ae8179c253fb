import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coversDir } from '../../../../src/features/admin/books/covers.service.ts';
import { COVER_MESSAGES } from '../../../../src/features/admin/books/cover-images.ts';
import { readCatalogueVersion } from '../../../../src/features/catalog/catalogue-version.ts';
import { buildTestShop, formToken, type TestShop } from '../../../helpers/app.ts';
import { ApiBrowser, newParent } from '../../../helpers/accounts.ts';
import { createOperator, operatorBrowser, signInWithPassword } from '../../../helpers/operator.ts';

// Uploading a book's cover: who may, what is refused (by the bytes, not the name), and what a
// good upload leaves on disk and on the shopper's pages.

let shop: TestShop;
let operator: supertest.Agent;
let dir: string;
beforeAll(async () => {
  shop = await buildTestShop();
  operator = (await operatorBrowser(shop)).agent;
  dir = coversDir(shop.config.uploadsDir);
});
afterAll(async () => {
  await shop.close();
});

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 40, g: 110, b: 160 } } });
const jpeg = (width: number, height: number) => solid(width, height).jpeg().toBuffer();
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900"><script>alert(1)</script><rect width="600" height="900" fill="red"/></svg>',
);

async function upload(agent: supertest.Agent, bookId: number, file: Buffer, filename: string, contentType: string) {
  const page = await agent.get(`/admin/books/${bookId}/cover`).expect(200);
  return agent.post(`/admin/books/${bookId}/cover`).field('_csrf', formToken(page.text)).attach('cover', file, { filename, contentType });
}

/** Everything an upload could change. */
async function snapshot() {
  const books = await shop.db('books').select().orderBy('id');
  const audit = await shop.db('audit_log').select().orderBy('id');
  const files = existsSync(dir) ? readdirSync(dir).sort() : [];
  return JSON.stringify({ books, audit, files, version: await readCatalogueVersion(shop.db) });
}

async function firstBookId(): Promise<number> {
  return Number((await shop.db('books').orderBy('id').first('id')).id);
}

describe('who reaches the cover page', () => {
  it('sends a visitor to sign in, and takes nothing from them', async () => {
    const id = await firstBookId();
    const before = await snapshot();
    const get = await shop.browser().get(`/admin/books/${id}/cover`);
    expect([get.status, get.headers.location]).toEqual([303, '/login']);
    const post = await shop
      .browser()
      .post(`/admin/books/${id}/cover`)
      .set('Sec-Fetch-Site', 'same-origin')
      .attach('cover', await jpeg(600, 900), 'cover.jpg');
    expect([post.status, post.headers.location]).toEqual([303, '/login']);
    expect(await snapshot()).toBe(before);
  });

  it('sends an operator who has given only the password to the second factor', async () => {
    const agent = shop.browser();
    expect((await signInWithPassword(agent, await createOperator(shop.db))).headers.location).toBe('/admin/two-factor');
    const res = await agent.get(`/admin/books/${await firstBookId()}/cover`);
    expect([res.status, res.headers.location]).toEqual([303, '/admin/two-factor']);
  });

  it('is Page Not Found to a customer, upload included', async () => {
    const id = await firstBookId();
    const customer = new ApiBrowser(shop.browser());
    expect((await customer.signUp(newParent())).status).toBeLessThan(300);
    const before = await snapshot();
    const get = await customer.agent.get(`/admin/books/${id}/cover`);
    expect(get.status).toBe(404);
    expect(get.text).toContain('Page Not Found');
    const post = await customer.agent
      .post(`/admin/books/${id}/cover`)
      .set('x-csrf-token', customer.token)
      .field('_csrf', customer.token)
      .attach('cover', await jpeg(600, 900), 'cover.jpg');
    expect(post.status).toBe(404);
    expect(await snapshot()).toBe(before);
  });

  it('shows an operator the current cover and a multipart form that works without script', async () => {
    const id = await firstBookId();
    const res = await operator.get(`/admin/books/${id}/cover`).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toMatch(/<img src="\/covers\/[a-z-]+\.svg" alt="The current cover of [^"]+" width="600" height="900"/);
    expect(res.text).toContain(`action="/admin/books/${id}/cover" enctype="multipart/form-data"`);
    expect(res.text).toContain('name="_csrf"');
    expect(res.text).toMatch(
      /<input type="file" id="cover-file" class="cover-file" name="cover" accept="image\/jpeg,image\/png,image\/webp"/,
    );
  });

  it('is Page Not Found for a book that does not exist', async () => {
    expect((await operator.get('/admin/books/999999/cover')).status).toBe(404);
    expect((await operator.get('/admin/books/abc/cover')).status).toBe(404);
  });
});

describe('covers on the shopper pages', () => {
  it("loads the catalogue's first row at once, the book page's cover first, and every cover further down lazily", async () => {
    const imgs = (html: string) => [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]).filter((tag) => /\/(covers|uploads)\//.test(tag));
    const grid = imgs((await shop.browser().get('/books').expect(200)).text);
    expect(grid.length).toBeGreaterThan(4);
    expect(grid.map((tag) => /loading="(\w+)"/.exec(tag)?.[1])).toEqual(grid.map((_, i) => (i < 4 ? 'eager' : 'lazy')));
    const book = imgs(
      (
        await shop
          .browser()
          .get(`/books/${await firstBookId()}`)
          .expect(200)
      ).text,
    );
    expect(book[0]).toContain('fetchpriority="high"');
    expect(book[0]).not.toContain('loading=');
    expect(book.slice(1).length).toBe(3);
    for (const tag of book.slice(1)) expect(tag).toContain('loading="lazy"');
    const home = imgs((await shop.browser().get('/').expect(200)).text);
    expect(home.length).toBeGreaterThan(0);
    for (const tag of home) expect(tag).toContain('loading="lazy"');
  });

  it('gives every seeded cover its size, so nothing moves as it loads', async () => {
    const html = (await shop.browser().get('/books').expect(200)).text;
    const covers = [...html.matchAll(/<img src="\/covers\/[^"]+"[^>]*>/g)].map((m) => m[0]);
    expect(covers.length).toBeGreaterThan(0);
    for (const tag of covers) expect(tag).toContain('width="600" height="900"');
  });
});

describe('refused uploads change nothing', () => {
  it('refuses a text file called .jpg (422, said on the page)', async () => {
    const before = await snapshot();
    const res = await upload(
      operator,
      await firstBookId(),
      Buffer.from('just some words, not a picture\n'.repeat(20)),
      'cover.jpg',
      'image/jpeg',
    );
    expect(res.status).toBe(422);
    expect(res.text).toContain(COVER_MESSAGES.wrongType);
    expect(res.text).toContain('aria-invalid="true"');
    expect(await snapshot()).toBe(before);
  });

  it('refuses an SVG renamed to .png and declared a PNG', async () => {
    const before = await snapshot();
    const res = await upload(operator, await firstBookId(), SVG, 'cover.png', 'image/png');
    expect(res.status).toBe(422);
    expect(res.text).toContain(COVER_MESSAGES.svg);
    expect(await snapshot()).toBe(before);
  });

  it('refuses an SVG under its own name', async () => {
    const before = await snapshot();
    const res = await upload(operator, await firstBookId(), SVG, 'cover.svg', 'image/svg+xml');
    expect(res.status).toBe(422);
    expect(await snapshot()).toBe(before);
  });

  it('refuses a small file that would decode to more than 25 megapixels (422, said on the page)', async () => {
    const before = await snapshot();
    const res = await upload(operator, await firstBookId(), await solid(5001, 5000).png().toBuffer(), 'cover.png', 'image/png');
    expect(res.status).toBe(422);
    expect(res.text).toContain(COVER_MESSAGES.tooManyPixels);
    expect(await snapshot()).toBe(before);
  });

  it('refuses a real image over 2 MB (413, said on the page)', async () => {
    // Noise does not compress: its PNG stays over the limit, as the first expectation checks.
    const big = await sharp(randomBytes(1000 * 1000 * 3), { raw: { width: 1000, height: 1000, channels: 3 } })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    const before = await snapshot();
    const res = await upload(operator, await firstBookId(), big, 'cover.png', 'image/png');
    expect(res.status).toBe(413);
    expect(res.text).toContain(COVER_MESSAGES.tooLarge);
    expect(await snapshot()).toBe(before);
  });

  it('answers a body declared far too large before any of it arrives', async () => {
    const id = await firstBookId();
    const page = await operator.get(`/admin/books/${id}/cover`).expect(200);
    const cookie = (page.request as unknown as { cookies: string }).cookies;
    const before = await snapshot();
    const status = await withServer(
      async (port) =>
        // 100 MB announced, a few bytes sent, and the request left open: only an early answer ends this.
        new Promise<number>((resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: `/admin/books/${id}/cover`,
              headers: {
                Cookie: cookie,
                'Content-Type': 'multipart/form-data; boundary=x',
                'Content-Length': String(100 * 1024 * 1024),
                'Sec-Fetch-Site': 'same-origin',
              },
            },
            (res) => {
              resolve(res.statusCode ?? 0);
              res.resume();
              req.destroy();
            },
          );
          req.on('error', reject);
          req.write('--x\r\n');
        }),
    );
    expect(status).toBe(413);
    expect(await snapshot()).toBe(before);
  });

  it('stops reading a body sent without a length once it passes 16 MB', async () => {
    const id = await firstBookId();
    const page = await operator.get(`/admin/books/${id}/cover`).expect(200);
    const cookie = (page.request as unknown as { cookies: string }).cookies;
    const before = await snapshot();
    const sent = await withServer(async (port) => {
      const megabyte = Buffer.alloc(1024 * 1024, 0x61);
      return new Promise<number>((resolve) => {
        let written = 0;
        const req = request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/admin/books/${id}/cover`,
          headers: {
            Cookie: cookie,
            'Content-Type': 'multipart/form-data; boundary=x',
            'Transfer-Encoding': 'chunked',
            'Sec-Fetch-Site': 'same-origin',
          },
        });
        const done = () => resolve(written);
        req.on('error', done).on('response', (res) => {
          res.resume();
          done();
        });
        const pump = () => {
          // 64 MB on offer; the shop should stop taking it long before.
          while (written < 64 * megabyte.length) {
            written += megabyte.length;
            if (
              !req.write(
                written === megabyte.length
                  ? Buffer.concat([Buffer.from('--x\r\nContent-Disposition: form-data; name="cover"; filename="a.jpg"\r\n\r\n'), megabyte])
                  : megabyte,
              )
            )
              return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
    });
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(await snapshot()).toBe(before);
  });

  it('refuses an upload without the form token (403)', async () => {
    const before = await snapshot();
    const res = await operator
      .post(`/admin/books/${await firstBookId()}/cover`)
      .attach('cover', await jpeg(600, 900), { filename: 'cover.jpg', contentType: 'image/jpeg' });
    expect(res.status).toBe(403);
    const forged = await operator
      .post(`/admin/books/${await firstBookId()}/cover`)
      .field('_csrf', 'not-the-token')
      .attach('cover', await jpeg(600, 900), 'cover.jpg');
    expect(forged.status).toBe(403);
    expect(await snapshot()).toBe(before);
  });

  it('refuses a form that is not multipart with a message (400)', async () => {
    const id = await firstBookId();
    const page = await operator.get(`/admin/books/${id}/cover`).expect(200);
    const before = await snapshot();
    const res = await operator
      .post(`/admin/books/${id}/cover`)
      .type('form')
      .send({ _csrf: formToken(page.text), cover: 'cover.jpg' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('This form could not be read');
    expect(await snapshot()).toBe(before);
  });

  it('leaves the token check of every other form as it was: a token hidden in a multipart body elsewhere is refused', async () => {
    const page = await operator.get(`/admin/books/${await firstBookId()}/cover`).expect(200);
    const res = await operator.post('/cart/clear').field('_csrf', formToken(page.text));
    expect(res.status).toBe(403);
  });

  it('asks for a file when none was chosen', async () => {
    const id = await firstBookId();
    const page = await operator.get(`/admin/books/${id}/cover`).expect(200);
    const before = await snapshot();
    const res = await operator
      .post(`/admin/books/${id}/cover`)
      .field('_csrf', formToken(page.text))
      .attach('cover', Buffer.alloc(0), { filename: '', contentType: 'application/octet-stream' });
    expect(res.status).toBe(422);
    expect(res.text).toContain(COVER_MESSAGES.missing);
    expect(await snapshot()).toBe(before);
  });
});

describe('a good upload', () => {
  it('stores a JPEG at every width up to 960, keeps its proportions, and shows it to shoppers at once', async () => {
    const id = await firstBookId();
    // Warm the anonymous page cache first: the new cover must not wait for it.
    const visitor = () => shop.browser();
    expect((await visitor().get('/books').expect(200)).text).not.toContain('srcset');
    await visitor().get(`/books/${id}`).expect(200);
    const version = await readCatalogueVersion(shop.db);

    const res = await upload(operator, id, await jpeg(1200, 1800), 'portrait.jpg', 'image/jpeg');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/admin/books/${id}/cover`);
    expect((await operator.get(res.headers.location!).expect(200)).text).toContain('Cover updated');

    const book = await shop.db('books').where({ id }).first();
    expect(book.coverWidths).toBe('160,320,480,640,800,960');
    expect([book.coverWidth, book.coverHeight]).toEqual([960, 1440]);
    for (const width of [160, 320, 480, 640, 800, 960]) {
      const meta = await sharp(path.join(dir, `${book.coverName}-${width}.webp`)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, width * 1.5]);
    }
    expect(book.imageUrl).toBe(`/uploads/covers/${book.coverName}-960.webp`);
    expect(await readCatalogueVersion(shop.db)).toBeGreaterThan(version);
    const audit = await shop.db('audit_log').where({ action: 'cover.replaced' }).first();
    expect(JSON.parse(audit.afterJson)).toMatchObject({ bookId: id, coverName: book.coverName });

    const srcset = [160, 320, 480, 640, 800, 960].map((w) => `/uploads/covers/${book.coverName}-${w}.webp ${w}w`).join(', ');
    const grid = (await visitor().get('/books').expect(200)).text;
    expect(grid).toContain(`srcset="${srcset}"`);
    expect(grid).toMatch(new RegExp(`srcset="${escape(srcset)}" sizes="[^"]+" alt="" width="960" height="1440" loading="eager"`));
    const detail = (await visitor().get(`/books/${id}`).expect(200)).text;
    expect(detail).toMatch(
      new RegExp(
        `<img src="${escape(book.imageUrl)}" srcset="${escape(srcset)}" sizes="[^"]+" alt="Cover of [^"]+" width="960" height="1440" fetchpriority="high">`,
      ),
    );

    // Served under its hashed name for a year; a name that is not a stored cover is not served.
    const file = await visitor().get(`/uploads/covers/${book.coverName}-320.webp`).expect(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await visitor().get('/uploads/covers/../../session-secret')).status).toBe(404);
  });

  it('never enlarges a small PNG: its own width is the largest', async () => {
    const id = (await firstBookId()) + 1;
    const res = await upload(operator, id, await solid(300, 450).png().toBuffer(), 'small.png', 'image/png');
    expect(res.status).toBe(303);
    const book = await shop.db('books').where({ id }).first();
    expect([book.coverWidths, book.coverWidth, book.coverHeight]).toEqual(['160,300', 300, 450]);
    expect((await sharp(path.join(dir, `${book.coverName}-300.webp`)).metadata()).width).toBe(300);
  });

  it('stands a photo upright by its camera orientation', async () => {
    const id = (await firstBookId()) + 3;
    // Stored 600x900 with "turn 90 degrees" (EXIF orientation 6): upright it is 900 wide and 600 tall.
    const sideways = await solid(600, 900).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await upload(operator, id, sideways, 'phone-photo.jpg', 'image/jpeg')).status).toBe(303);
    const book = await shop.db('books').where({ id }).first();
    expect([book.coverWidths, book.coverWidth, book.coverHeight]).toEqual(['160,320,480,640,800,900', 900, 600]);
    const stored = await sharp(path.join(dir, `${book.coverName}-900.webp`)).metadata();
    expect([stored.width, stored.height, stored.orientation]).toEqual([900, 600, undefined]);
  });

  it('takes a WebP, and a new cover gets new addresses', async () => {
    const id = (await firstBookId()) + 2;
    await upload(operator, id, await solid(800, 1000).webp().toBuffer(), 'first.webp', 'image/webp').then((r) =>
      expect(r.status).toBe(303),
    );
    const first = await shop.db('books').where({ id }).first();
    expect([first.coverWidths, first.coverWidth, first.coverHeight]).toEqual(['160,320,480,640,800', 800, 1000]);
    await upload(operator, id, await jpeg(640, 960), 'second.jpg', 'image/jpeg').then((r) => expect(r.status).toBe(303));
    const second = await shop.db('books').where({ id }).first();
    expect(second.coverName).not.toBe(first.coverName);
    const page = (await shop.browser().get(`/books/${id}`).expect(200)).text;
    expect(page).toContain(`${second.coverName}-640.webp 640w`);
    expect(page).not.toContain(first.coverName);
    // The first cover's files go once no book shows them; nothing links them any more.
    const files = readdirSync(dir);
    for (const width of [160, 320, 480, 640, 800]) expect(files).not.toContain(`${first.coverName}-${width}.webp`);
    for (const width of [160, 320, 480, 640]) expect(files).toContain(`${second.coverName}-${width}.webp`);
  });

  it('shows the uploaded cover as a thumbnail on the cart page', async () => {
    const id = await firstBookId();
    const book = await shop.db('books').where({ id }).first();
    const parent = new ApiBrowser(shop.browser());
    expect((await parent.send('post', '/api/cart', { bookId: id, quantity: 1 })).status).toBe(201);
    const cart = (await parent.get('/cart').expect(200)).text;
    expect(cart).toContain(`sizes="64px" alt="" width="64" height="96" loading="lazy"`);
    expect(cart).toContain(`${book.coverName}-160.webp 160w`);
  });
});

/** The shop on a port of its own, for requests supertest cannot make (a body that never ends). */
async function withServer<T>(talk: (port: number) => Promise<T>): Promise<T> {
  const server = createServer(shop.app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await talk((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
