import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { seedBooks } from '../seeds/books.ts';

const TODAY = '2026-11-28';
const books = seedBooks(TODAY);
const forthcoming = books.filter((b) => b.takes_preorders);

const COMING_SOON = '#coming-soon';
const cents = (price: string): number => Math.round(Number(price) * 100);

describe('seed catalogue', () => {
  it('has at least 12 books with unique titles', () => {
    expect(books.length).toBeGreaterThanOrEqual(12);
    const titles = books.map((b) => b.title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('writes every price as a valid 2-decimal string', () => {
    for (const book of books) {
      expect(book.price, book.title).toMatch(/^\d{1,8}\.\d{2}$/);
      expect(cents(book.price), book.title).toBeGreaterThan(0);
    }
  });

  it('has prices on both sides of the $25 and $50 shipping tiers', () => {
    const all = books.map((b) => cents(b.price));
    expect(all.some((c) => c < 2500)).toBe(true);
    expect(all).toContain(2500);
    expect(all.some((c) => c > 2500 && c < 5000)).toBe(true);
    expect(all.some((c) => c >= 5000)).toBe(true);
  });

  it('has sold-out, low and plentiful stock', () => {
    const stock = books.map((b) => b.in_stock);
    for (const n of stock) expect(Number.isInteger(n) && n >= 0).toBe(true);
    expect(stock).toContain(0);
    expect(stock.some((n) => n >= 1 && n <= 10)).toBe(true);
    expect(stock.some((n) => n > 10)).toBe(true);
  });

  it('mixes real Amazon links, coming-soon links and missing links', () => {
    expect(books.some((b) => b.amazon_url === COMING_SOON)).toBe(true);
    expect(books.some((b) => b.amazon_kindle_url === COMING_SOON)).toBe(true);
    for (const book of books) {
      for (const url of [book.amazon_url, book.amazon_kindle_url]) {
        if (url === null || url === COMING_SOON) continue;
        expect(url, book.title).toMatch(/^https:\/\/www\.amazon\.com\/dp\/[A-Z0-9]{10}$/);
      }
    }
  });

  it('keeps the other columns within the schema', () => {
    for (const book of books) {
      expect(book.title.length, book.title).toBeLessThanOrEqual(200);
      expect(book.author.length, book.title).toBeLessThanOrEqual(200);
      expect(book.description.length, book.title).toBeGreaterThan(40);
      expect(book.age_range, book.title).toMatch(/^\d-\d$/);
      expect(Number.isInteger(book.pages) && (book.pages ?? 0) > 0, book.title).toBe(true);
      expect(book.published_on, book.title).toMatch(/^20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
      if (book.preorder_limit !== null) expect(Number.isInteger(book.preorder_limit) && book.preorder_limit > 0, book.title).toBe(true);
    }
  });

  it('has two forthcoming titles taking pre-orders, dated after the seeding day, one with a small limit', () => {
    expect(forthcoming.map((b) => b.title)).toEqual(['The Hedgehog Who Wanted Snow', 'The Library at the Bottom of the Sea']);
    expect(forthcoming.map((b) => b.published_on)).toEqual(['2027-01-12', '2027-03-08']);
    for (const book of forthcoming) expect(book.in_stock, book.title).toBe(0);
    expect(forthcoming.map((b) => b.preorder_limit)).toEqual([null, 4]);
    // Seeded on another day, they are still ahead of it.
    const later = seedBooks('2031-06-30').filter((b) => b.takes_preorders);
    for (const book of later) expect(book.published_on > '2031-06-30', book.title).toBe(true);
  });

  it('dates every other title in the past, not taking pre-orders', () => {
    for (const book of books.filter((b) => !b.takes_preorders)) {
      expect(book.published_on < TODAY, book.title).toBe(true);
      expect(book.preorder_limit, book.title).toBeNull();
    }
  });

  it('has a cover file under public/ for every image_url', () => {
    for (const book of books) {
      expect(book.image_url, book.title).toMatch(/^\/covers\/[a-z0-9-]+\.svg$/);
      const file = path.join(process.cwd(), 'public', book.image_url);
      expect(existsSync(file), file).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg, file).toContain('role="img"');
      expect(svg, file).toContain('<title>');
      expect(svg, file).not.toMatch(/<script|<image|href="http/i);
    }
  });
});
