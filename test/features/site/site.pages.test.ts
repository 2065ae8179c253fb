import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

describe('GET /', () => {
  it('the banner counts the books the catalogue lists, and follows it when a title is added', async () => {
    const catalogue = await shop.browser().get('/books').expect(200);
    const listed = (catalogue.text.match(/class="book-card"/g) ?? []).length;
    const home = await shop.browser().get('/').expect(200);
    expect(home.text).toContain(`${listed} picture books and early readers`);

    const { id, ...first } = await shop.db('books').first();
    // As every change to the books does, the addition raises the catalogue version.
    const added = await shop.db.transaction(async (trx) => {
      const [newId] = await trx('books').insert({ ...first, title: 'A Brand New Title' });
      await bumpCatalogueVersion(trx);
      return newId;
    });
    try {
      const after = await shop.browser().get('/').expect(200);
      expect(after.text).toContain(`${listed + 1} picture books and early readers`);
    } finally {
      await shop
        .db('books')
        .where('id', added ?? id + 1000)
        .del();
    }
  });
});
