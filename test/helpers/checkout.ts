import { expect } from 'vitest';
import { ApiBrowser, newParent, type Parent } from './accounts.ts';
import type { TestShop } from './app.ts';
import { bumpCatalogueVersion } from '../../src/features/catalog/catalogue-version.ts';

export const SHIPPING = { address: '214 Maple Street', city: 'Portland', zipCode: '97205' };
export const CARDS = { success: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', threeDSecure: '4000 0025 0000 3155' };

/** A parent going through checkout with the JSON API, as the card island does. */
export class Buyer extends ApiBrowser {
  parent: Parent = newParent();
  intent: { clientSecret: string; paymentIntentId: string; amount: number } | undefined;

  /** Any shop that hands out cookie-keeping agents: a test shop, or a running server's URL. */
  constructor(shop: Pick<TestShop, 'browser'>) {
    super(shop.browser());
  }

  async add(bookId: number, quantity = 1) {
    const res = await this.send('post', '/api/cart', { bookId, quantity });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }

  async createAccount(shippingInfo = SHIPPING) {
    const res = await this.send('post', '/api/create-user-and-customer', { ...this.parent, shippingInfo });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { user: { id: number }; stripeCustomerId: string };
  }

  async totals(shippingInfo = SHIPPING) {
    return this.send('post', '/api/calculate-totals', shippingInfo);
  }

  /** Guest variant when a customer id is given, signed-in variant otherwise. */
  async startPayment(
    options: {
      stripeCustomerId?: string;
      totalAmount?: string;
      amount?: number;
      shippingInfo?: typeof SHIPPING;
      gift?: { giftNote?: string; giftRecipient?: string };
    } = {},
  ) {
    const shippingInfo = options.shippingInfo ?? SHIPPING;
    const res = options.stripeCustomerId
      ? await this.send('post', '/api/create-payment-intent-with-customer', {
          stripeCustomerId: options.stripeCustomerId,
          totalAmount: options.totalAmount,
          shippingInfo,
        })
      : await this.send('post', '/api/create-payment-intent-authenticated', { amount: options.amount, shippingInfo, ...options.gift });
    if (res.status === 200) this.intent = res.body;
    return res;
  }

  async confirm(card: string) {
    const res = await this.send('post', '/api/sandbox/confirm', {
      paymentIntentId: this.intent!.paymentIntentId,
      clientSecret: this.intent!.clientSecret,
      cardNumber: card,
      expiry: '12/34',
      cvc: '123',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { status: string; error: string | null };
  }

  async authenticate(succeed: boolean) {
    const res = await this.send('post', '/api/sandbox/authenticate', {
      paymentIntentId: this.intent!.paymentIntentId,
      clientSecret: this.intent!.clientSecret,
      succeed,
    });
    return res.body as { status: string; error: string | null };
  }

  async complete(paymentIntentId = this.intent!.paymentIntentId) {
    return this.send('post', '/api/complete-order', { stripePaymentIntentId: paymentIntentId, shippingInfo: SHIPPING });
  }
}

export async function stockOf(shop: TestShop, bookId: number): Promise<number> {
  return Number((await shop.db('books').where({ id: bookId }).first()).inStock);
}

/** Sets a book's stock as an operator's change would: with a new catalogue version. */
export async function setStock(shop: TestShop, bookId: number, inStock: number): Promise<void> {
  await shop.db.transaction(async (trx) => {
    await trx('books').where({ id: bookId }).update({ inStock });
    await bumpCatalogueVersion(trx);
  });
}
