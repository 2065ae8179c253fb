import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';
import { Buyer, SHIPPING } from '../../helpers/checkout.ts';
import { placePaidOrder } from '../../helpers/orders.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
  await shop.db('books').update({ inStock: 200 });
});
afterAll(() => shop.close());

const fieldValue = (html: string, id: string) => new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(html)?.[1] ?? null;

async function saveAddress(agent: supertest.Agent, fields: Record<string, string>) {
  const page = await agent.get('/dashboard?tab=profile').expect(200);
  return agent
    .post('/dashboard/address')
    .type('form')
    .send({ _csrf: formToken(page.text), ...fields });
}

describe('the saved shipping address', () => {
  it('is saved when an order is paid and prefilled at the next checkout, for that parent only', async () => {
    const { buyer } = await placePaidOrder(shop);
    await buyer.add(1, 1);
    const checkout = await buyer.agent.get('/authcheckout').expect(200);
    expect(fieldValue(checkout.text, 'co-address')).toBe(SHIPPING.address);
    expect(fieldValue(checkout.text, 'co-city')).toBe(SHIPPING.city);
    expect(fieldValue(checkout.text, 'co-zip')).toBe(SHIPPING.zipCode);

    const other = new Buyer(shop);
    await other.signUp(other.parent);
    await other.add(1, 1);
    const theirs = await other.agent.get('/authcheckout').expect(200);
    expect(theirs.text).not.toContain(SHIPPING.address);
    expect(fieldValue(theirs.text, 'co-address')).toBe('');
  });

  it('prefills nothing for a guest', async () => {
    const guest = new Buyer(shop);
    await guest.add(1, 1);
    const page = await guest.agent.get('/simple-checkout').expect(200);
    expect(fieldValue(page.text, 'co-address')).toBe('');
    expect(page.text).not.toContain(SHIPPING.address);
  });

  it('is edited in the Profile and offered at checkout after that', async () => {
    const { buyer } = await placePaidOrder(shop);
    const profile = await buyer.agent.get('/dashboard?tab=profile').expect(200);
    expect(fieldValue(profile.text, 'saved-address')).toBe(SHIPPING.address);
    const res = await saveAddress(buyer.agent, { address: '  9 Elm Road ', city: 'Seattle', zipCode: '98101' });
    expect(res.status).toBe(303);
    const after = await buyer.agent.get(res.headers.location!).expect(200);
    expect(after.text).toContain('Address Saved');
    await buyer.add(1, 1);
    const checkout = await buyer.agent.get('/authcheckout').expect(200);
    expect(fieldValue(checkout.text, 'co-address')).toBe('9 Elm Road');
    expect(fieldValue(checkout.text, 'co-city')).toBe('Seattle');
    expect(fieldValue(checkout.text, 'co-zip')).toBe('98101');
  });

  it('refuses an invalid edit with messages beside the fields and saves nothing', async () => {
    const { buyer } = await placePaidOrder(shop);
    const res = await saveAddress(buyer.agent, { address: '', city: 'Seattle', zipCode: '98' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/id="saved-address-error"[^>]*>Address is required</);
    expect(res.text).toMatch(/id="saved-zipCode-error"[^>]*>ZIP code must be 5 digits</);
    expect(res.text).toMatch(/id="saved-zipCode"[^>]*aria-invalid="true"/);
    const profile = await buyer.agent.get('/dashboard?tab=profile').expect(200);
    expect(fieldValue(profile.text, 'saved-address')).toBe(SHIPPING.address);
    expect(fieldValue(profile.text, 'saved-city')).toBe(SHIPPING.city);
  });
});
