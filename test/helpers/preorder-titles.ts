import type { TestShop } from './app.ts';
import { bumpCatalogueVersion } from '../../src/features/catalog/catalogue-version.ts';
import { dayIn } from '../../src/lib/dates.ts';

/** A day `days` after the shop's today (SHOP_TIME_ZONE's default zone), "2027-03-08". */
export function daysFromNow(days: number): string {
  const today = new Date(`${dayIn('America/New_York')}T00:00:00Z`);
  today.setUTCDate(today.getUTCDate() + days);
  return today.toISOString().slice(0, 10);
}

/** A publication date well ahead of the shop's day, in every process a test starts. */
export const OUT_ON = daysFromNow(120);

export interface ForthcomingTitle {
  publishedOn?: string;
  /** The first print run; null: no limit. */
  limit?: number | null;
  /** Copies already promised to pre-orders. */
  preordered?: number;
  inStock?: number;
  takesPreorders?: boolean;
  price?: string;
}

/** Makes a book a forthcoming title taking pre-orders, as the operator's form would, with a new catalogue version. */
export async function makeForthcoming(shop: Pick<TestShop, 'db'>, bookId: number, title: ForthcomingTitle = {}): Promise<void> {
  await shop.db.transaction(async (trx) => {
    await trx('books')
      .where({ id: bookId })
      .update({
        publishedOn: title.publishedOn ?? OUT_ON,
        takesPreorders: title.takesPreorders ?? true,
        preorderLimit: title.limit === undefined ? null : title.limit,
        preordered: title.preordered ?? 0,
        inStock: title.inStock ?? 0,
        hidden: false,
        ...(title.price ? { price: title.price } : {}),
      });
    await bumpCatalogueVersion(trx);
  });
}

/** A book's shelf and the copies promised to pre-orders, as stored. */
export async function countsOf(shop: Pick<TestShop, 'db'>, bookId: number): Promise<{ inStock: number; preordered: number }> {
  const row = await shop.db('books').where({ id: bookId }).first('inStock', 'preordered');
  return { inStock: Number(row.inStock), preordered: Number(row.preordered) };
}
