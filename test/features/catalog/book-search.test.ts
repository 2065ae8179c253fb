import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { bookFormFields, postAdminForm } from '../../helpers/book-admin.ts';
import { chance, junkString, pick, seededRng } from '../../helpers/fuzz.ts';
import { skippedHeadingLevels } from '../../helpers/html.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';

// Finding a book on /books: the search goes through the database's full-text index (FTS5 on
// SQLite, FULLTEXT on MariaDB), the age bands and sorts through the catalogue.

const BOOKS = [
  {
    title: "The Bear's Picnic",
    author: 'Hazel Thorn',
    description: 'Sandwiches for every friend in the wood.',
    ageRange: '3-5',
    price: '12.00',
    publishedOn: '2025-03-01',
  },
  {
    title: 'Moonlit Meadow',
    author: 'Quentin Marsh',
    description: 'A zebrafinch named Lark sings at dusk.',
    ageRange: '0-2',
    price: '8.50',
    publishedOn: '2026-01-10',
  },
  {
    title: 'Rocket Raccoon Readers',
    author: 'Ada Quillfeather',
    description: 'A raccoon builds a rocket from boxes.',
    ageRange: '6-9',
    price: '15.00',
    publishedOn: '2024-06-01',
  },
  {
    title: 'Tides of Tomorrow',
    author: 'Ines Harbour',
    description: 'A lighthouse keeper and the sea.',
    ageRange: '9-11',
    price: '19.99',
    publishedOn: '2023-09-09',
  },
  {
    title: 'Zigzag Mountain',
    author: 'Bruno Peak',
    description: 'Climbing with a grumpy goat.',
    ageRange: '10-12',
    price: '22.00',
    publishedOn: '2026-05-05',
  },
  {
    title: 'Little Sprouts',
    author: 'Hazel Thorn',
    description: 'Seeds grow into a picnic garden.',
    ageRange: '3-8',
    price: '9.99',
    publishedOn: '2025-11-11',
  },
  {
    title: 'Ageless Almanac',
    author: 'Vera Calendar',
    description: 'Facts about the picnic seasons.',
    ageRange: '',
    price: '11.00',
    publishedOn: '2022-02-02',
  },
  {
    title: 'Secret Picnic Plans',
    author: 'Hidden Hand',
    description: 'A zebrafinch picnic nobody may see.',
    ageRange: '3-5',
    price: '5.00',
    publishedOn: '2026-06-06',
    hidden: true,
  },
];

let shop: TestShop;
const idOf = new Map<string, number>();

beforeAll(async () => {
  shop = await buildTestShop({ seed: false });
  await shop.db.transaction(async (trx) => {
    for (const { hidden = false, ...book } of BOOKS) {
      const [id] = await trx('books').insert({ ...book, inStock: 5, hidden });
      idOf.set(book.title, Number(id));
    }
    await bumpCatalogueVersion(trx);
  });
});
afterAll(() => shop.close());

function titles(html: string): string[] {
  return [...html.matchAll(/class="book-card-title">([^<]*)</g)].map((m) => m[1]!.replace(/&#39;/g, "'").replace(/&amp;/g, '&'));
}

function status(html: string): string | undefined {
  return /<p[^>]*role="status"[^>]*>\s*([^<]*?)\s*<\/p>/.exec(html)?.[1];
}

async function find(query: string) {
  const res = await shop.browser().get(`/books${query}`).expect(200);
  return { titles: titles(res.text), status: status(res.text), html: res.text };
}

describe('searching /books?q=', () => {
  it('finds a word that appears only in a description', async () => {
    const found = await find('?q=zebrafinch');
    expect(found.titles).toEqual(['Moonlit Meadow']);
    expect(found.status).toBe('1 book found');
  });

  it("finds an author's name", async () => {
    expect((await find('?q=Quillfeather')).titles).toEqual(['Rocket Raccoon Readers']);
    expect((await find('?q=hazel%20thorn&sort=title')).titles).toEqual(['Little Sprouts', "The Bear's Picnic"]);
  });

  it('finds a title with an apostrophe, typed with or without it', async () => {
    expect((await find(`?q=${encodeURIComponent("Bear's Picnic")}`)).titles).toEqual(["The Bear's Picnic"]);
    expect((await find(`?q=${encodeURIComponent('bear picnic')}`)).titles).toEqual(["The Bear's Picnic"]);
  });

  it('matches the start of a word, in any letter case, and ranks nothing hidden', async () => {
    expect((await find('?q=PICNIC&sort=title')).titles).toEqual(['Ageless Almanac', 'Little Sprouts', "The Bear's Picnic"]);
  });

  it('never shows a hidden book', async () => {
    const found = await find('?q=secret');
    expect(found.titles).toEqual([]);
    expect(found.html).not.toContain('Secret Picnic Plans');
  });

  it("says 'No books found', counts 0 and offers the way back to every book", async () => {
    const found = await find('?q=xylophonic');
    expect(found.titles).toEqual([]);
    expect(found.status).toBe('0 books found');
    expect(found.html).toContain('No books found');
    expect(found.html).toMatch(/<a href="\/books"[^>]*>Show all books<\/a>/);
    expect(skippedHeadingLevels(found.html)).toEqual([]);
  });

  it('treats a search of only short or very common words as nothing to search for', async () => {
    const found = await find('?q=the%20a%20of');
    expect(found.titles).toEqual([]);
    expect(found.html).toContain('Search with words of at least 3 letters');
  });

  it('keeps the search in the form, so the page can be changed and shared', async () => {
    const found = await find(`?q=${encodeURIComponent('"bear" <b>')}`);
    expect(found.html).toContain('value="&quot;bear&quot; &lt;b&gt;"');
  });

  it.each([
    ['"'],
    ['*'],
    ['('],
    [')'],
    ['-'],
    ['bear*'],
    ['-bear'],
    ['"bear'],
    ["'"],
    ['+picnic -bear ~x <y> @2'],
    ['NEAR(bear picnic)'],
    ['bear AND OR NOT'],
    ['ours 🐻 ünïcödé 熊'],
    ['x'.repeat(200)],
  ])('answers hostile input %j with a page, never an error', async (q) => {
    const res = await shop.browser().get(`/books?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(status(res.text)).toMatch(/^\d+ books? found$/);
  });

  it('answers 300 generated searches, bands and sorts (repeated keys too) with the catalogue, a value it cannot use named in a notice', async () => {
    const rng = seededRng(20261125);
    // Every byte percent-encoded: the generator's lone surrogates go as UTF-8's replacement character.
    const inUrl = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    const value = () =>
      inUrl(
        chance(rng, 0.5)
          ? [...junkString(rng)].slice(0, 300).join('')
          : pick(rng, ['3-5', '9-12', 'title', 'newest', '', '*', '"', "'", '-']),
      );
    for (let i = 0; i < 300; i++) {
      const parts = ['q', 'age', 'sort', 'q'].filter(() => chance(rng, 0.6)).map((key) => `${key}=${value()}`);
      const res = await shop.browser().get(`/books?${parts.join('&')}`);
      expect(res.status, `/books?${parts.join('&').slice(0, 200)}`).toBe(200);
      expect(status(res.text)).toMatch(/^\d+ books? found$/);
    }
  });

  it('shows every book for a search longer than 200 characters, and says why', async () => {
    const res = await shop
      .browser()
      .get(`/books?q=${'x'.repeat(500)}`)
      .expect(200);
    expect(res.text).toContain('Please search with at most 200 characters. All books are shown instead.');
    expect(status(res.text)).toBe('7 books found');
  });

  it('finds a book edited through the back office by its new title at once', async () => {
    const { agent } = await operatorBrowser(shop);
    const id = idOf.get('Zigzag Mountain')!;
    const res = await postAdminForm(
      agent,
      `/admin/books/${id}/edit`,
      `/admin/books/${id}`,
      bookFormFields({
        title: 'Quokka Summit',
        author: 'Bruno Peak',
        isbn: '',
        ageRange: '10-12',
        price: '22.00',
        publishedOn: '2026-05-05',
      }),
    );
    expect(res.status).toBe(303);
    expect((await find('?q=quokka')).titles).toEqual(['Quokka Summit']);
    expect((await find('?q=zigzag')).titles).toEqual([]);
  });
});

describe('age bands on /books?age=', () => {
  it.each([
    ['0-2', ['Moonlit Meadow']],
    ['3-5', ["The Bear's Picnic", 'Little Sprouts']],
    ['6-9', ['Rocket Raccoon Readers', 'Tides of Tomorrow', 'Little Sprouts']],
    ['9-12', ['Rocket Raccoon Readers', 'Tides of Tomorrow', 'Zigzag Mountain|Quokka Summit']],
  ])('band %s keeps the books whose ages overlap it (9 belongs to both 6-9 and 9-12)', async (age, expected) => {
    const found = await find(`?age=${age}`);
    expect(found.titles.map((t) => (t === 'Zigzag Mountain' || t === 'Quokka Summit' ? 'Zigzag Mountain|Quokka Summit' : t))).toEqual(
      expected,
    );
    expect(found.status).toBe(`${expected.length} book${expected.length === 1 ? '' : 's'} found`);
  });

  it('a book without an age range is in no band, but in the full list', async () => {
    for (const age of ['0-2', '3-5', '6-9', '9-12']) expect((await find(`?age=${age}`)).titles).not.toContain('Ageless Almanac');
    const all = await find('');
    expect(all.titles).toContain('Ageless Almanac');
    expect(all.html).not.toContain('<span class="age">Ages </span>');
  });

  it('shows every age for an unknown band, with a notice, and keeps the sort it was given', async () => {
    const res = await shop.browser().get('/books?age=4-6&sort=title').expect(200);
    expect(res.text).toMatch(
      /<div class="callout finder-notice" role="status">There is no age band \u201c4-6\u201d, so books for every age are shown.<\/div>/,
    );
    expect(status(res.text)).toBe('7 books found');
    expect(res.text).toMatch(/<option value="title" selected>/);
  });

  it('an empty band (the form\'s "All ages") and an empty sort mean none', async () => {
    expect((await find('?q=&age=&sort=')).titles).toHaveLength(7);
  });
});

describe('sorting /books?sort=', () => {
  const zigzag = (t: string) => (t === 'Quokka Summit' ? 'Zigzag Mountain' : t);

  it('keeps the catalogue order without a sort', async () => {
    expect((await find('')).titles.map(zigzag)).toEqual(BOOKS.filter((b) => !b.hidden).map((b) => b.title));
  });

  it.each([
    [
      'newest',
      [
        'Zigzag Mountain',
        'Moonlit Meadow',
        'Little Sprouts',
        "The Bear's Picnic",
        'Rocket Raccoon Readers',
        'Tides of Tomorrow',
        'Ageless Almanac',
      ],
    ],
    [
      'price-asc',
      [
        'Moonlit Meadow',
        'Little Sprouts',
        'Ageless Almanac',
        "The Bear's Picnic",
        'Rocket Raccoon Readers',
        'Tides of Tomorrow',
        'Zigzag Mountain',
      ],
    ],
    [
      'price-desc',
      [
        'Zigzag Mountain',
        'Tides of Tomorrow',
        'Rocket Raccoon Readers',
        "The Bear's Picnic",
        'Ageless Almanac',
        'Little Sprouts',
        'Moonlit Meadow',
      ],
    ],
  ])('sort=%s', async (sort, expected) => {
    expect((await find(`?sort=${sort}`)).titles.map(zigzag)).toEqual(expected);
  });

  it('sort=title is alphabetical', async () => {
    const listed = (await find('?sort=title')).titles;
    expect(listed).toEqual([...listed].sort((a, b) => a.localeCompare(b, 'en')));
    expect(listed).toHaveLength(7);
  });

  it('falls back to the usual order for an unknown sort, says so, and stays in the catalogue', async () => {
    const res = await shop.browser().get('/books?sort=cheapest').expect(200);
    expect(res.text).toContain('We can&#39;t sort by \u201ccheapest\u201d, so the books are in our usual order.');
    expect(res.text).toContain('<h1>Our Books</h1>');
    expect(res.text).toMatch(/<option value="" selected>Our picks<\/option>/);
    expect((await find('?sort=cheapest')).titles).toEqual((await find('')).titles);
  });

  it('combines a search, an age band and a sort', async () => {
    const found = await find('?q=picnic&age=3-5&sort=price-desc');
    expect(found.titles).toEqual(["The Bear's Picnic", 'Little Sprouts']);
    expect(found.status).toBe('2 books found');
    expect(found.html).toMatch(/<option value="3-5" selected>/);
    expect(found.html).toMatch(/<option value="price-desc" selected>/);
  });
});

describe('the search box in the site header', () => {
  it.each(['/', '/books', '/books?q=picnic', '/about', '/contact', '/login', '/termsofuse', '/no-such-page'])(
    'is on %s, labelled, and asks /books',
    async (path) => {
      const res = await shop.browser().get(path);
      const form =
        /<form class="header-search" action="\/books" method="get" role="search" aria-label="Search books" data-from-address>([\s\S]*?)<\/form>/.exec(
          res.text,
        )?.[1];
      expect(form).toBeDefined();
      // On a phone the label is also the icon that opens the box: its words are for screen readers.
      expect(res.text).toMatch(
        /<label for="site-search"[^>]*>(?:<svg [^>]*aria-hidden="true"[\s\S]*?<\/svg>)?<span class="visually-hidden">Search books by title, author or word<\/span><\/label>/,
      );
      expect(form).toMatch(/<input type="search" id="site-search" name="q"/);
    },
  );
});
