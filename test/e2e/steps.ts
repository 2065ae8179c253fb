// Small steps and fixtures the browser journeys share.
import { expect, type Page } from '@playwright/test';
import type { Account } from './harness.ts';

/** A book as GET /api/books answers it (the fields the journeys read). */
export interface Book {
  id: number;
  title: string;
  price: string;
  priceCents: number;
  inStock: number;
}

export interface Address {
  address: string;
  city: string;
  state: string;
  zipCode: string;
}

export interface Totals {
  subtotal: string;
  shipping: string;
  handling: string;
  tax: string;
  total: string;
}

/** One $16.99 book to Portland, OR: $7.99 shipping (under $25), $2.50 handling, no sales tax in Oregon. */
export const PORTLAND: Address = { address: '1120 SW 5th Ave', city: 'Portland', state: 'OR', zipCode: '97205' };
export const PORTLAND_TOTALS: Totals = { subtotal: '$16.99', shipping: '$7.99', handling: '$2.50', tax: '$0.00', total: '$27.48' };

/** A $16.99 book with plenty of copies in the seeded catalogue: PORTLAND_TOTALS are for one copy of it. */
export async function plentifulBook(baseUrl: string): Promise<Book> {
  const res = await fetch(`${baseUrl}/api/books`);
  expect(res.status).toBe(200);
  const candidates = ((await res.json()) as Book[]).filter((b) => b.priceCents === 16_99 && b.inStock > 10);
  expect(candidates.length, 'a $16.99 book with more than 10 copies in the seeded catalogue').toBeGreaterThan(0);
  return candidates[0]!;
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

export const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, intervals: [100] });

/** The one toast on screen has this title (and, when given, this text). */
export async function expectToast(page: Page, title: string, text?: string): Promise<void> {
  const toast = page.locator('[data-toasts] [data-toast]');
  await eventually(() => toast.locator('.toast-title').allInnerTexts()).toEqual([title]);
  if (text !== undefined) expect(await toast.locator('.toast-text').innerText()).toBe(text);
}

/**
 * A refused form's summary (`#<form>-problems`), as every form of the shop tells a refusal: it has
 * the focus and its title, links to each field in the form's order, and each field is marked and
 * described by its message; no toast stands in for it.
 */
export async function expectSummary(page: Page, summaryId: string, title: string, links: Array<[string, string]>): Promise<void> {
  const summary = page.locator(`#${summaryId}`);
  await summary.waitFor();
  expect(await summary.getAttribute('role')).toBe('alert');
  await eventually(() => page.evaluate(() => document.activeElement?.id ?? '')).toBe(summaryId);
  expect(await summary.getByRole('heading').innerText()).toBe(title);
  const shown = await summary.locator('a').evaluateAll((as) => as.map((a) => [a.getAttribute('href')!.slice(1), a.textContent.trim()]));
  expect(shown).toEqual(links);
  for (const [inputId, message] of links) {
    const input = page.locator(`#${inputId}`);
    expect(await input.getAttribute('aria-invalid'), inputId).toBe('true');
    await expect(input).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  // No toast stands in for it or covers the form.
  expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
}

/** A payment's failure beside the Pay button, as 'Payment Failed: Your card was declined.' (its title, then what it says). */
export async function paymentProblem(page: Page): Promise<string> {
  const problem = page.locator('#payment-problem');
  return `${await problem.locator('.form-problems-title').innerText()}: ${await problem.locator('p').innerText()}`;
}

const RUN = Date.now().toString(36);
let customers = 0;

/** A new customer; the email is unique within the run and across runs. */
export function newCustomer(firstName: string): Required<Account> {
  customers += 1;
  return {
    firstName,
    lastName: 'Reader',
    email: `${firstName.toLowerCase()}.${RUN}.${customers}@example.com`,
    password: `bedtime-${customers}-story`,
  };
}

/** The guest checkout's account fields. */
export async function fillGuestDetails(page: Page, customer: Required<Account>): Promise<void> {
  await page.locator('#co-first').fill(customer.firstName);
  await page.locator('#co-last').fill(customer.lastName);
  await page.locator('#co-email').fill(customer.email);
  await page.locator('#co-password').fill(customer.password);
  await page.locator('#co-confirm').fill(customer.password);
}

/** The signed-in customer's order ids, asked of the API with the page's cookies. */
export async function orderIds(page: Page, baseUrl: string): Promise<number[]> {
  const res = await page.request.get(`${baseUrl}/api/orders`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as Array<{ id: number }>).map((o) => o.id);
}

/** A card expiry date three years from now, as MM/YY. */
export function futureExpiry(): string {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() + 3) % 100).padStart(2, '0')}`;
}

/** Types a card into the checkout's card form (the sandbox's fields). */
export async function enterCard(page: Page, number: string): Promise<void> {
  await page.locator('#card-number').fill(number);
  await page.locator('#card-expiry').fill(futureExpiry());
  await page.locator('#card-cvc').fill('123');
}
