import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';
import { startCoverBucket, type CoverBucket } from '../../helpers/cover-bucket.ts';
import { operatorBrowser } from '../../helpers/operator.ts';

// With S3_PUBLIC_URL (a CDN or the bucket's public address) browsers fetch covers from there:
// every page, the API and the share card link it, and the pages' security policy lets it in.
// The address is worked out as a page is drawn, so a book uploaded before it was set (or
// under another one) links the new address after a restart.

const PUBLIC = 'https://covers.littlelantern.example/shop';

let bucket: CoverBucket;
let shop: TestShop;
let id: number;
let name: string;
beforeAll(async () => {
  bucket = await startCoverBucket();
  // Uploaded while the shop serves covers itself.
  shop = await buildTestShop({ env: bucket.env });
  const { agent } = await operatorBrowser(shop);
  id = Number((await shop.db('books').orderBy('id').first('id')).id);
  const page = await agent.get(`/admin/books/${id}/cover`).expect(200);
  const image = await sharp({ create: { width: 700, height: 1050, channels: 3, background: '#2a6ea0' } })
    .png()
    .toBuffer();
  await agent
    .post(`/admin/books/${id}/cover`)
    .field('_csrf', formToken(page.text))
    .attach('cover', image, { filename: 'cover.png', contentType: 'image/png' })
    .expect(303);
  name = (await shop.db('books').where({ id }).first()).coverName;
  // The same shop started again with the public address.
  await shop.sessions.close();
  await shop.db.destroy();
  shop = await buildTestShop({ seed: false, database: shop.database, env: { ...bucket.env, S3_PUBLIC_URL: `${PUBLIC}/` } });
});
afterAll(async () => {
  await shop?.close();
  await bucket?.close();
});

describe('covers linked at S3_PUBLIC_URL', () => {
  it('links every width at the public address on the catalogue and the book page', async () => {
    const srcset = [160, 320, 480, 640, 700].map((w) => `${PUBLIC}/${name}-${w}.webp ${w}w`).join(', ');
    for (const path of ['/books', `/books/${id}`]) {
      const html = (await shop.browser().get(path).expect(200)).text;
      expect(html).toContain(`srcset="${srcset}"`);
      expect(html).not.toContain(`/uploads/covers/${name}`);
    }
  });

  it('names the public address in the API, the share card and the structured data', async () => {
    const largest = `${PUBLIC}/${name}-700.webp`;
    const api = await shop.browser().get(`/api/books/${id}`).expect(200);
    expect(api.body.imageUrl ?? api.body.book?.imageUrl).toBe(largest);
    const html = (await shop.browser().get(`/books/${id}`).expect(200)).text;
    expect(html).toContain(`content="${largest}"`);
    expect(html).toContain(`"image":"${largest}"`);
    expect(html).not.toContain(`${shop.config.publicUrl}${PUBLIC}`);
  });

  it("lets browsers load images from the public address's origin, and no other", async () => {
    const csp = (await shop.browser().get('/books').expect(200)).headers['content-security-policy'] as string;
    expect(csp).toContain("img-src 'self' data: https://covers.littlelantern.example;");
  });

  it('still serves the files itself, for links made before', async () => {
    const file = await shop.browser().get(`/uploads/covers/${name}-320.webp`).expect(200);
    expect(file.headers['content-type']).toBe('image/webp');
  });
});
