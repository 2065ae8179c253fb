// A book page in every state it can be in, in Chromium at 390x844, 360x740 and 1280x800: in stock,
// only a few left, out of stock, coming soon (not out yet, no pre-orders), taking pre-orders,
// pre-orders all taken, without buy links, and without a cover. In each: on a phone the price and
// the buy button are in the first screen; no quantity menu that is empty, and none where nothing
// can be bought; the Share and buy buttons keep one height and sit on rows that start at the same
// edge, each "coming soon" note under its own button; nothing wider than the screen; axe; a screenshot.
import { expect, type BrowserContextOptions, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { connectDb, type Db } from '../../src/db.ts';
import { bumpCatalogueVersion } from '../../src/features/catalog/catalogue-version.ts';
import { desktop, expectNoAxeViolations, phone, screenshot, smallPhone, withPage, type Shop } from './harness.ts';

test.use({ shopFor: 'book-page-states' });

/** A year from today: a title still to come out, whatever day the journey runs. */
const NEXT_YEAR = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);
const SOON = '#coming-soon';

interface State {
  name: string;
  /** A seeded title, set to the state by `change`. */
  title: string;
  change: Record<string, unknown>;
  /** The buy button's words. */
  button: 'Add to Cart' | 'Pre-order';
  /** Whether a parent can press it (and so choose a quantity). */
  buyable: boolean;
  badge: string;
  /** What else the page must say of the state. */
  says?: string;
  /** The buy links shown beside Share. */
  links: string[];
}

const STATES: State[] = [
  {
    name: 'in-stock',
    title: 'Pip and the Moon Garden',
    change: { inStock: 30, amazonUrl: 'https://www.amazon.com/dp/1917342015', amazonKindleUrl: 'https://www.amazon.com/dp/B0CW4KQ7ZM' },
    button: 'Add to Cart',
    buyable: true,
    badge: 'In Stock',
    links: ['Buy Hardcover', 'Buy Kindle Ebook'],
  },
  {
    name: 'only-few-left',
    title: 'Otter Knows the Way Home',
    change: { inStock: 2, amazonUrl: 'https://www.amazon.com/dp/1917342023', amazonKindleUrl: SOON },
    button: 'Add to Cart',
    buyable: true,
    badge: 'Only 2 left',
    links: ['Buy Hardcover', 'Buy Kindle Ebook'],
  },
  {
    name: 'out-of-stock',
    title: 'The Big Book of Small Creatures',
    change: { inStock: 0, amazonUrl: SOON, amazonKindleUrl: null },
    button: 'Add to Cart',
    buyable: false,
    badge: 'Coming Soon',
    says: "Email me when it's back",
    links: ['Buy Hardcover'],
  },
  {
    name: 'coming-soon',
    title: 'A Kite Named Tuesday',
    change: { inStock: 0, publishedOn: NEXT_YEAR, takesPreorders: false, amazonUrl: SOON, amazonKindleUrl: SOON },
    button: 'Add to Cart',
    buyable: false,
    badge: 'Coming Soon',
    says: "Email me when it's back",
    links: ['Buy Hardcover', 'Buy Kindle Ebook'],
  },
  {
    name: 'pre-order',
    title: 'The Hedgehog Who Wanted Snow',
    change: { inStock: 0, publishedOn: NEXT_YEAR, takesPreorders: true, preorderLimit: null, preordered: 0 },
    button: 'Pre-order',
    buyable: true,
    badge: 'Coming Soon',
    says: 'You pay now and we send it as soon as it is out.',
    links: ['Buy Hardcover', 'Buy Kindle Ebook'],
  },
  {
    name: 'pre-orders-full',
    title: 'The Library at the Bottom of the Sea',
    change: { inStock: 0, publishedOn: NEXT_YEAR, takesPreorders: true, preorderLimit: 2, preordered: 2 },
    button: 'Pre-order',
    buyable: false,
    badge: 'Coming Soon',
    says: 'Every pre-order copy has been taken.',
    links: ['Buy Hardcover'],
  },
  {
    name: 'no-buy-links',
    title: 'The Dragon Who Collected Buttons',
    change: { inStock: 19, amazonUrl: null, amazonKindleUrl: null },
    button: 'Add to Cart',
    buyable: true,
    badge: 'In Stock',
    links: [],
  },
  {
    name: 'no-cover',
    title: 'Goodnight, Little Lantern',
    change: { inStock: 37, imageUrl: null, coverName: null, coverWidth: null, coverHeight: null, coverWidths: null },
    button: 'Add to Cart',
    buyable: true,
    badge: 'In Stock',
    links: ['Buy Hardcover', 'Buy Kindle Ebook'],
  },
];

const SIZES: Array<[string, BrowserContextOptions, boolean]> = [
  ['phone', phone, true],
  ['small-phone', smallPhone, true],
  ['desktop', { ...desktop, viewport: { width: 1280, height: 800 } }, false],
];

let shop: Shop;
let db: Db;
const ids = new Map<string, number>();

test.beforeAll(async ({ shop: started }) => {
  shop = started;
  db = connectDb({ databaseUrl: shop.env.DATABASE_URL, dataDir: shop.env.DATA_DIR! });
  await db.transaction(async (trx) => {
    for (const state of STATES) {
      const book = await trx('books').where({ title: state.title }).first<{ id: number } | undefined>('id');
      expect(book, `the seeded title ${state.title}`).toBeDefined();
      await trx('books').where({ id: book!.id }).update(state.change);
      ids.set(state.name, book!.id);
    }
    await bumpCatalogueVersion(trx);
  });
});
test.afterAll(async () => {
  await db?.destroy();
});

interface Box {
  top: number;
  bottom: number;
  left: number;
  height: number;
}

/** Where the buy row's buttons and their "coming soon" notes sit, relative to the row. */
async function buyRow(page: Page) {
  return page.locator('.buy-elsewhere').evaluate((row) => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, height: r.height };
    };
    return {
      row: box(row),
      buttons: [...row.querySelectorAll('button, [role="button"]')].map((el) => ({
        label: (el.firstChild?.textContent ?? '').trim(),
        ...box(el),
      })),
      notes: [...row.querySelectorAll('.soon-link')].map((link) => ({
        button: box(link.querySelector('button')!),
        note: box(link.querySelector('.soon-note')!),
      })),
    };
  });
}

for (const [size, options, isPhone] of SIZES) {
  test.describe(`at ${options.viewport!.width}x${options.viewport!.height}`, () => {
    for (const state of STATES) {
      test(`a book ${state.name.replace(/-/g, ' ')}`, async ({ browser }) => {
        await withPage(browser, options, async (page) => {
          await page.goto(`${shop.baseUrl}/books/${ids.get(state.name)}`);
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(state.title);
          const facts = page.locator('.book-heading');
          await expect(facts.locator('.badge')).toHaveText(state.badge);
          if (state.says) await expect(page.locator('.book-info').getByText(state.says, { exact: false }).first()).toBeVisible();

          const form = page.locator('form[data-add-to-cart]');
          const button = form.getByRole('button', { name: state.button, exact: true });
          await expect(button).toBeVisible();
          if (state.buyable) await expect(button).toBeEnabled();
          else await expect(button).toBeDisabled();

          // The price and the button are in the first screen on a phone, under the sticky header.
          const height = page.viewportSize()!.height;
          const price = (await page.locator('.book-heading .price').boundingBox())!;
          const pressed = (await button.boundingBox())!;
          if (isPhone) {
            expect(
              price.y + price.height,
              `the price's bottom (y=${price.y + price.height}) in the first ${height} px`,
            ).toBeLessThanOrEqual(height);
            expect(
              pressed.y + pressed.height,
              `the ${state.button} button's bottom (y=${pressed.y + pressed.height}) in the first ${height} px`,
            ).toBeLessThanOrEqual(height);
          }

          // Read and tabbed through as seen: the title, the price, the buy button, then Share.
          const inOrder = await page.evaluate(() => {
            const seen = ['h1', '.book-heading .price', 'form[data-add-to-cart] button[type="submit"]', '[data-share]'].map((sel) =>
              document.querySelector(sel),
            );
            return seen.every((el, i) => el && (i === 0 || seen[i - 1]!.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
          });
          expect(inOrder).toBe(true);

          // A quantity menu only where something can be bought, and never an empty one.
          await expect(page.locator('#quantity')).toHaveCount(state.buyable ? 1 : 0);
          for (const select of await page.locator('main select').all()) expect(await select.locator('option').count()).toBeGreaterThan(0);

          // The buy row: Share and the links, one height, each row starting at the same edge.
          const row = await buyRow(page);
          expect(row.buttons.map((b) => b.label)).toEqual(['Share', ...state.links]);
          const tallest = Math.max(...row.buttons.map((b) => b.height));
          for (const b of row.buttons)
            expect(Math.abs(b.height - tallest), `${b.label} is ${b.height} px tall beside ${tallest}`).toBeLessThanOrEqual(1);
          const rows = new Map<number, Box[]>();
          for (const b of row.buttons) {
            const top = [...rows.keys()].find((t) => Math.abs(t - b.top) <= 1) ?? b.top;
            rows.set(top, [...(rows.get(top) ?? []), b]);
          }
          for (const line of rows.values())
            expect(Math.abs(line[0]!.left - row.row.left), 'a row of buy links starts at the edge').toBeLessThanOrEqual(1);
          for (const { button: soon, note } of row.notes) {
            expect(Math.abs(note.left - soon.left), 'a coming-soon note sits under its button').toBeLessThanOrEqual(1);
            expect(note.top).toBeGreaterThanOrEqual(soon.bottom);
          }

          // A book without a cover shows the drawn placeholder, in a cover's shape.
          const cover = (await page.locator('.book-cover img').boundingBox())!;
          expect(cover.height / cover.width).toBeCloseTo(1.5, 1);
          if (state.name === 'no-cover') {
            await expect(page.locator('.book-cover img')).toHaveAttribute('src', '/images/placeholder-cover.svg');
            await expect(page.locator('.book-cover img')).toHaveAccessibleName(`${state.title}: cover coming soon`);
          }

          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          await screenshot(page, `book-page-${state.name}-${size}`, { fullPage: false });
          await screenshot(page, `book-page-${state.name}-${size}-full`);
          await expectNoAxeViolations(page);
        });
      });
    }
  });
}
