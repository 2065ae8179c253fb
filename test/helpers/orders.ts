import { expect } from 'vitest';
import type supertest from 'supertest';
import type { TestShop } from './app.ts';
import { formToken } from './app.ts';
import { Buyer, CARDS } from './checkout.ts';

/** A parent who paid for `quantity` copies of a book through the real checkout (sandbox card). */
export async function placePaidOrder(
  shop: Pick<TestShop, 'browser'>,
  { bookId = 1, quantity = 2, gift }: { bookId?: number; quantity?: number; gift?: { giftNote?: string; giftRecipient?: string } } = {},
): Promise<{ buyer: Buyer; orderId: number }> {
  const buyer = new Buyer(shop);
  expect((await buyer.signUp(buyer.parent)).status).toBeLessThan(300);
  await buyer.add(bookId, quantity);
  const started = await buyer.startPayment({ gift });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect((await buyer.confirm(CARDS.success)).status).toBe('succeeded');
  const completed = await buyer.complete();
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  return { buyer, orderId: Number(completed.body.order.id) };
}

/** The order page's hidden fields: CSRF token and the one-time keys of its money forms. */
export async function orderForm(
  agent: supertest.Agent,
  orderId: number,
): Promise<{ csrf: string; cancelKey: string; refundKey: string; html: string }> {
  const page = await agent.get(`/admin/orders/${orderId}`);
  expect(page.status, page.text.slice(0, 300)).toBe(200);
  const key = (action: string) =>
    new RegExp(`action="/admin/orders/${orderId}/${action}"[\\s\\S]*?name="requestKey" value="([^"]+)"`).exec(page.text)?.[1] ?? '';
  return { csrf: formToken(page.text), cancelKey: key('cancel'), refundKey: key('refund'), html: page.text };
}

export function postForm(agent: supertest.Agent, path: string, body: Record<string, string>) {
  return agent.post(path).type('form').send(body);
}
