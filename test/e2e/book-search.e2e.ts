// A parent finds a book: the header's search box, the count, an age band, a sort and the
// back button, on a phone and a desktop, with axe on each page of results.
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { desktop, expectNoAxeViolations, phone, screenshot, withPage, type Shop } from './harness.ts';

test.use({ shopFor: 'book-search' });

let shop: Shop;
let browser: Browser;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
});

const cards = (page: Page) => page.locator('.book-card');
const count = (page: Page) => page.getByRole('status').filter({ hasText: /found$/ });

async function shownCount(page: Page): Promise<number> {
  const text = (await count(page).innerText()).trim();
  const n = Number(/^(\d+) books? found$/.exec(text)?.[1]);
  expect(n, `the count reads "${text}"`).toBe(await cards(page).count());
  return n;
}

async function agesShown(page: Page): Promise<[number, number][]> {
  const ages = await page.locator('.book-card .age').allInnerTexts();
  return ages.map((text) => text.replace('Ages ', '').split('-').map(Number) as [number, number]);
}

async function pricesShown(page: Page): Promise<number[]> {
  return (await page.locator('.book-card-price').allInnerTexts()).map((text) => Number(text.replace('$', '')));
}

async function findABook(page: Page, device: string): Promise<void> {
  await page.goto(shop.baseUrl + '/about');
  const searchBox = page.getByRole('searchbox', { name: 'Search books by title, author or word' });
  await searchBox.fill('night');
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/books' && url.searchParams.get('q') === 'night'),
    searchBox.press('Enter'),
  ]);
  const searched = await shownCount(page);
  expect(searched).toBeGreaterThan(1);
  await expect(page.getByRole('searchbox', { name: 'Title, author or word', exact: true })).toHaveValue('night');
  await screenshot(page, `book-search-${device}-results`, { fullPage: false });
  await expectNoAxeViolations(page);

  await page.getByLabel('Age', { exact: true }).selectOption('6-9');
  await Promise.all([
    page.waitForURL((url) => url.searchParams.get('age') === '6-9'),
    page.getByRole('button', { name: 'Show books' }).click(),
  ]);
  const banded = await shownCount(page);
  expect(banded).toBeGreaterThan(0);
  expect(banded).toBeLessThan(searched);
  for (const [low, high] of await agesShown(page)) expect(low <= 9 && high >= 6, `ages ${low}-${high} overlap 6-9`).toBe(true);

  await page.getByLabel('Sort by').selectOption('price-asc');
  await Promise.all([
    page.waitForURL((url) => url.searchParams.get('sort') === 'price-asc'),
    page.getByRole('button', { name: 'Show books' }).click(),
  ]);
  expect(await shownCount(page)).toBe(banded);
  const prices = await pricesShown(page);
  expect(prices).toEqual([...prices].sort((a, b) => a - b));
  expect(new URL(page.url()).searchParams.get('q')).toBe('night');
  await screenshot(page, `book-search-${device}-sorted`);
  await expectNoAxeViolations(page);

  await page.goBack();
  await expect(page).toHaveURL(/age=6-9/);
  await expect(page.getByLabel('Sort by')).toHaveValue('');
  await page.goBack();
  expect(new URL(page.url()).searchParams.get('age')).toBeNull();
  expect(await shownCount(page)).toBe(searched);

  await page.goto(shop.baseUrl + '/books?q=xylophonic');
  await expect(page.getByRole('heading', { name: 'No books found' })).toBeVisible();
  await expect(count(page)).toHaveText('0 books found');
  await screenshot(page, `book-search-${device}-none`, { fullPage: false });
  await expectNoAxeViolations(page);
  await Promise.all([
    page.waitForURL((url) => url.pathname === '/books' && url.search === ''),
    page.getByRole('button', { name: 'Show all books' }).click(),
  ]);
  expect(await shownCount(page)).toBeGreaterThan(searched);
}

for (const [device, options] of [
  ['phone', phone],
  ['desktop', desktop],
] as const) {
  test(`a parent searches, filters by age, sorts and goes back on a ${device}`, async () => {
    await withPage(browser, options, (page) => findABook(page, device));
  });
}
