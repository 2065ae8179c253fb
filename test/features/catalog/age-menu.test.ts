import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';

// The catalogue's age menu offers the bands that hold a listed book: the sample catalogue has
// no book for ages 0-2, so "Ages 0-2" is not offered until one is on sale.

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

/** The age menu's options as the page lists them: [value, label, selected]. */
async function ageMenu(query = ''): Promise<Array<[string, string, boolean]>> {
  const res = await shop.browser().get(`/books${query}`).expect(200);
  const menu = /<select id="finder-age" name="age">([\s\S]*?)<\/select>/.exec(res.text)![1]!;
  return [...menu.matchAll(/<option value="([^"]*)"( selected)?>([^<]*)<\/option>/g)].map((m) => [m[1]!, m[3]!, Boolean(m[2])]);
}

async function addBook(title: string, ageRange: string, hidden: boolean): Promise<void> {
  await shop.db.transaction(async (trx) => {
    await trx('books').insert({
      title,
      author: 'Pip Lark',
      description: 'A board book of soft animal sounds.',
      ageRange,
      price: '8.00',
      publishedOn: '2024-03-03',
      inStock: 5,
      hidden,
    });
    await bumpCatalogueVersion(trx);
  });
}

describe('the age menu on /books', () => {
  it('offers only the bands that have books: no "Ages 0-2" in the sample catalogue', async () => {
    expect(await ageMenu()).toEqual([
      ['', 'All ages', true],
      ['3-5', 'Ages 3-5', false],
      ['6-9', 'Ages 6-9', false],
      ['9-12', 'Ages 9-12', false],
    ]);
  });

  it('keeps the band an old link asks for, selected, and says no book is found', async () => {
    expect((await ageMenu('?age=0-2')).filter(([, , selected]) => selected)).toEqual([['0-2', 'Ages 0-2', true]]);
    const res = await shop.browser().get('/books?age=0-2').expect(200);
    expect(res.text).toContain('No books found');
    expect(res.text).toContain('Try another word or age band.');
  });

  it('does not count a hidden book, and offers the band once a book for it is on sale', async () => {
    await addBook('Quiet Little Moos', '0-2', true);
    expect((await ageMenu()).map(([value]) => value)).not.toContain('0-2');
    await addBook('Soft Little Baas', '0-2', false);
    expect((await ageMenu()).map(([value]) => value)).toEqual(['', '0-2', '3-5', '6-9', '9-12']);
  });
});
