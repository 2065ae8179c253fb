import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer } from '../../helpers/checkout.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

describe('checkout pages', () => {
  it.each(['/checkout', '/simple-checkout'])('%s is the guest checkout: account fields, address, card, summary', async (path) => {
    const buyer = new Buyer(shop);
    await buyer.add(1, 2);
    const res = await buyer.get(path).expect(200);
    expect(res.text).toContain('<h1>Complete Your Order</h1>');
    for (const name of ['firstName', 'lastName', 'email', 'password', 'address', 'city', 'zipCode'])
      expect(res.text).toContain(`name="${name}"`);
    expect(res.text).toContain('maxlength="5"');
    // The spec's Parent Login to /login, coming back to the checkout signed in.
    expect(res.text).toContain('href="/login?next=%2Fcheckout" role="button" class="secondary outline">Parent Login</a>');
    expect(res.text).toContain('data-island="card-form"');
    expect(res.text).toContain('"mode":"sandbox"');
    expect(res.text).toContain('Order Summary');
    expect(res.text).toContain('$33.98');
    expect(res.text).toContain('Free shipping on orders of $50.00 or more.');
    expect(res.text).not.toContain('js.stripe.com');
  });

  it.each(['/simple-checkout', '/authcheckout'])(
    '%s says card payment needs JavaScript before any field, with the cart and the books',
    async (path) => {
      const buyer = new Buyer(shop);
      if (path === '/authcheckout') await buyer.signUp(buyer.parent);
      await buyer.add(1);
      const html = (await buyer.get(path).expect(200)).text;
      const main = html.slice(html.indexOf('<main'));
      const notice = /<noscript>\s*<section class="callout noscript-notice"[\s\S]*?<\/noscript>/.exec(main);
      expect(notice?.[0]).toContain('Card payment needs JavaScript');
      expect(notice?.[0]).toContain('href="/cart"');
      expect(notice?.[0]).toContain('href="/books"');
      expect(notice!.index).toBeLessThan(main.indexOf('<h1>'));
      expect(notice!.index).toBeLessThan(main.indexOf('<input'));
      // Without script the form is not shown (styles hide [data-needs-script]).
      expect(main).toMatch(/<form id="checkout-form"[^>]*data-needs-script/);
    },
  );

  it('answers an empty cart with a clear message and Return to Books instead of a checkout', async () => {
    const res = await new Buyer(shop).get('/simple-checkout').expect(200);
    expect(res.text).toContain('Your cart is empty. Add some books before checking out.');
    expect(res.text).toContain('href="/books" role="button">Return to Books</a>');
    expect(res.text).not.toContain('data-island="card-form"');
  });

  it('sends signed-in customers to /authcheckout, which has no account fields, and visitors the other way', async () => {
    const buyer = new Buyer(shop);
    await buyer.signUp(buyer.parent);
    await buyer.add(1);
    const redirect = await buyer.get('/simple-checkout').expect(303);
    expect(redirect.headers.location).toBe('/authcheckout');
    const page = await buyer.get('/authcheckout').expect(200);
    expect(page.text).toContain('<h1>Complete Your Order</h1>');
    expect(page.text).not.toContain('name="password"');
    expect(page.text).toContain(buyer.parent.email);
    const visitor = await new Buyer(shop).get('/authcheckout').expect(303);
    expect(visitor.headers.location).toBe('/simple-checkout');
  });

  it("shows 'Order Not Found' with a way home when there is no order id", async () => {
    const res = await new Buyer(shop).get('/order-confirmation').expect(404);
    expect(res.text).toContain('Order Not Found');
    expect(res.text).toContain('Return Home');
    expect(res.text).toContain('Continue Shopping');
    expect(res.text).not.toContain('Back to Home');
  });
});
