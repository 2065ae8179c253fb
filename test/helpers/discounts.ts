import type { TestShop } from './app.ts';
import { bumpCatalogueVersion } from '../../src/features/catalog/catalogue-version.ts';
import { DiscountCode } from '../../src/models/DiscountCode.ts';

/** A code as the operator's form would save it; open-ended and unlimited unless told. */
export async function addCode(shop: Pick<TestShop, 'db'>, code: Partial<DiscountCode> & Pick<DiscountCode, 'code' | 'kind'>) {
  return DiscountCode.query(shop.db).insert({
    percent: 0,
    amount: 0,
    minimumSubtotal: 0,
    startsOn: null,
    endsOn: null,
    maxUses: null,
    active: true,
    createdAt: new Date(),
    ...code,
  });
}

export async function codeRow(shop: Pick<TestShop, 'db'>, code: string): Promise<DiscountCode> {
  return (await DiscountCode.query(shop.db).findOne({ code }))!;
}

/** A book at a given price with plenty of copies, for totals at exact boundaries. */
export async function priceBook(shop: Pick<TestShop, 'db'>, bookId: number, price: string, inStock = 500): Promise<void> {
  await shop.db.transaction(async (trx) => {
    await trx('books').where({ id: bookId }).update({ price, inStock });
    await bumpCatalogueVersion(trx);
  });
}
