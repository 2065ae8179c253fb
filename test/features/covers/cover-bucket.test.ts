import sharp from 'sharp';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COVER_MESSAGES, CoverNotStored } from '../../../src/features/admin/books/cover-images.ts';
import { createCovers } from '../../../src/features/admin/books/covers.service.ts';
import { coverStoreFor } from '../../../src/features/covers/store-choice.ts';
import { createLogger } from '../../../src/log.ts';
import { readCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';
import { startCoverBucket, type CoverBucket } from '../../helpers/cover-bucket.ts';
import { operatorBrowser } from '../../helpers/operator.ts';

// Covers in an S3-compatible bucket (S3_BUCKET) every server shares, against a real S3-protocol
// server: every width is in the bucket before the book points at it, the shop serves them
// from there as it serves them from disk, a replaced cover's files go, and a bucket out of
// reach changes nothing and says so.

const WIDTHS = [160, 320, 480, 640, 800, 960];
const IMMUTABLE = 'public, max-age=31536000, immutable';

let bucket: CoverBucket;
let shop: TestShop;
let operator: supertest.Agent;
beforeAll(async () => {
  bucket = await startCoverBucket();
  shop = await buildTestShop({ env: bucket.env });
  operator = (await operatorBrowser(shop)).agent;
});
afterAll(async () => {
  await shop?.close();
  await bucket?.close();
});

const picture = (shade: number, width = 1200, height = 1800) =>
  sharp({ create: { width, height, channels: 3, background: { r: shade, g: 110, b: 160 } } })
    .jpeg()
    .toBuffer();

async function upload(target: TestShop, agent: supertest.Agent, bookId: number, file: Buffer) {
  const page = await agent.get(`/admin/books/${bookId}/cover`).expect(200);
  return agent
    .post(`/admin/books/${bookId}/cover`)
    .field('_csrf', formToken(page.text))
    .attach('cover', file, { filename: 'cover.jpg', contentType: 'image/jpeg' });
}

async function bookIds(target: TestShop): Promise<number[]> {
  return (await target.db('books').orderBy('id').select('id')).map((row: { id: number }) => Number(row.id));
}

const keysOf = (name: string, widths = WIDTHS) => widths.map((w) => `covers/${name}-${w}.webp`);

describe('a cover uploaded through the operator form', () => {
  it('is in the bucket at every width before the book links it, and served from there with immutable headers', async () => {
    const [id] = await bookIds(shop);
    const res = await upload(shop, operator, id!, await picture(10));
    expect([res.status, res.headers.location]).toEqual([303, `/admin/books/${id}/cover`]);
    const book = await shop.db('books').where({ id }).first();
    expect(book.coverWidths).toBe(WIDTHS.join(','));
    expect(await bucket.keys()).toEqual(expect.arrayContaining(keysOf(book.coverName)));

    const page = (await shop.browser().get(`/books/${id}`).expect(200)).text;
    for (const width of WIDTHS) {
      const url = `/uploads/covers/${book.coverName}-${width}.webp`;
      expect(page).toContain(`${url} ${width}w`);
      const file = await shop.browser().get(url).expect(200);
      expect(file.headers['content-type']).toBe('image/webp');
      expect(file.headers['cache-control']).toBe(IMMUTABLE);
      expect((await sharp(file.body as Buffer).metadata()).width).toBe(width);
    }
    // The API and the share card name the largest copy at the shop's own address.
    const api = await shop.browser().get(`/api/books/${id}`).expect(200);
    expect(api.body.imageUrl ?? api.body.book?.imageUrl).toBe(`/uploads/covers/${book.coverName}-960.webp`);
  });

  it('answers Page Not Found for a stored-looking name the bucket lacks, and for any other name', async () => {
    expect((await shop.browser().get(`/uploads/covers/${'0'.repeat(32)}-320.webp`)).status).toBe(404);
    expect((await shop.browser().get('/uploads/covers/../../session-secret')).status).toBe(404);
    expect((await shop.browser().get('/uploads/covers/cover.webp')).status).toBe(404);
  });
});

describe('a replaced cover', () => {
  it("deletes the old cover's files once no book shows them, and keeps those another book still shows", async () => {
    const [, first, second] = await bookIds(shop);
    const shared = await picture(60);
    await upload(shop, operator, first!, shared).then((r) => expect(r.status).toBe(303));
    await upload(shop, operator, second!, shared).then((r) => expect(r.status).toBe(303));
    const sharedName = (await shop.db('books').where({ id: first }).first()).coverName as string;
    expect((await shop.db('books').where({ id: second }).first()).coverName).toBe(sharedName);

    // The first book moves on: the second still shows the picture, so its files stay.
    await upload(shop, operator, first!, await picture(90)).then((r) => expect(r.status).toBe(303));
    const replacement = (await shop.db('books').where({ id: first }).first()).coverName as string;
    expect(await bucket.keys()).toEqual(expect.arrayContaining([...keysOf(sharedName), ...keysOf(replacement)]));

    // The second moves on too: nothing shows the shared picture now, and its files are gone.
    await upload(shop, operator, second!, await picture(120)).then((r) => expect(r.status).toBe(303));
    const keys = await bucket.keys();
    for (const key of keysOf(sharedName)) expect(keys).not.toContain(key);
    expect(keys).toEqual(expect.arrayContaining(keysOf(replacement)));
    expect((await shop.browser().get(`/uploads/covers/${sharedName}-320.webp`)).status).toBe(404);
  });

  it('keeps the cover of a hidden book, which shows it again once shown', async () => {
    const [, , , id] = await bookIds(shop);
    await upload(shop, operator, id!, await picture(150)).then((r) => expect(r.status).toBe(303));
    const name = (await shop.db('books').where({ id }).first()).coverName as string;
    await shop.db('books').where({ id }).update({ hidden: true });
    await shop.db('books').where({ id }).update({ hidden: false });
    expect(await bucket.keys()).toEqual(expect.arrayContaining(keysOf(name)));
  });
});

describe('a bucket that does not take the upload', () => {
  it('leaves the book as it was and tells the operator in words (503), for a bucket that does not exist', async () => {
    const missing = await buildTestShop({ env: { ...bucket.env, S3_BUCKET: 'no-such-bucket' } });
    try {
      const agent = (await operatorBrowser(missing)).agent;
      const [id] = await bookIds(missing);
      const before = JSON.stringify([await missing.db('books').select().orderBy('id'), await readCatalogueVersion(missing.db)]);
      const res = await upload(missing, agent, id!, await picture(200));
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('60');
      expect(res.text).toContain(COVER_MESSAGES.notStored.replace("'", '&#39;'));
      expect(res.text).not.toMatch(/at .+\.ts:\d+/);
      expect(JSON.stringify([await missing.db('books').select().orderBy('id'), await readCatalogueVersion(missing.db)])).toBe(before);
      expect(await missing.db('audit_log').where({ action: 'cover.replaced' })).toEqual([]);
    } finally {
      await missing.close();
    }
  });

  it('takes back the widths already written when a later one is refused, and leaves the book as it was', async () => {
    const [, , , , , id] = await bookIds(shop);
    const real = coverStoreFor(shop.config);
    let puts = 0;
    // The bucket takes two widths, then refuses the third.
    const flaky = {
      ...real,
      put: (file: string, data: Buffer) => (++puts === 3 ? Promise.reject(new Error('SlowDown')) : real.put(file, data)),
    };
    const covers = createCovers({ db: shop.db, store: flaky, log: createLogger('silent') });
    const before = await shop.db('books').where({ id }).first();
    const keysBefore = await bucket.keys();
    const refused = await covers.replace(id!, await picture(240), 1).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(CoverNotStored);
    expect((refused as CoverNotStored).status).toBe(503);
    expect(puts).toBe(3);
    expect(await shop.db('books').where({ id }).first()).toEqual(before);
    expect(await bucket.keys()).toEqual(keysBefore);
  });

  it('leaves the book as it was while the storage server is down, and /readyz says covers are unavailable', async () => {
    const [, , , , id] = await bookIds(shop);
    expect((await shop.browser().get('/readyz').expect(200)).body.checks).toMatchObject({ covers: 'ok' });
    const before = await shop.db('books').where({ id }).first();
    await bucket.stop();
    try {
      const res = await upload(shop, operator, id!, await picture(220));
      expect(res.status).toBe(503);
      expect(res.text).toContain(COVER_MESSAGES.notStored.replace("'", '&#39;'));
      expect(await shop.db('books').where({ id }).first()).toEqual(before);

      const ready = await shop.browser().get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'unavailable', checks: { covers: 'unavailable' } });

      // The status page's Covers card says it in words, the provider's answer folded for the host.
      const status = (await operator.get('/admin').expect(200)).text;
      const card = /<h2>Covers<\/h2>([\s\S]*?)<\/article>/.exec(status)![1]!;
      expect(card).toContain('Error');
      expect(card).toContain('The shop cannot reach the storage bucket');
      expect(card).toContain('Details for your host');
    } finally {
      await bucket.start();
    }
    expect((await shop.browser().get('/readyz').expect(200)).body.checks).toMatchObject({ covers: 'ok' });
    const card = /<h2>Covers<\/h2>([\s\S]*?)<\/article>/.exec((await operator.get('/admin').expect(200)).text)![1]!;
    expect(card).toContain('Connected');
    expect(card).toContain('Covers are kept in a storage bucket every server shares.');
    expect(card).not.toContain(shop.config.dataDir);
  });
});
