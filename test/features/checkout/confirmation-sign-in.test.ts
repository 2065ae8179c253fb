// The confirmation email links to /order-confirmation?orderId=N: a parent who is signed out
// is sent to sign in and then brought back to that order, never anywhere off the shop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { ApiBrowser } from '../../helpers/accounts.ts';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';
import type { Buyer } from '../../helpers/checkout.ts';
import { placePaidOrder } from '../../helpers/orders.ts';

let shop: TestShop;
let buyer: Buyer;
let orderId: number;
let emailLink: string;
beforeAll(async () => {
  shop = await buildTestShop();
  ({ buyer, orderId } = await placePaidOrder(shop));
  emailLink = `/order-confirmation?orderId=${orderId}`;
});
afterAll(() => shop.close());

const EVIL = ['//evil.example/login', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/\t/evil.example'];

/** Opens the sign-in page as `url` shows it and posts its sign-in form, as a browser without script. */
async function signInWithForm(agent: supertest.Agent, url: string, fields: Record<string, string> = {}) {
  const page = await agent.get(url).expect(200);
  const next = /name="next" value="([^"]*)"/.exec(page.text)?.[1];
  const body = {
    _csrf: formToken(page.text),
    email: buyer.parent.email,
    password: buyer.parent.password,
    ...(next === undefined ? {} : { next: next.replaceAll('&amp;', '&') }),
    ...fields,
  };
  return agent.post('/login').type('form').send(body);
}

describe('the confirmation link, signed out', () => {
  it('leads to sign-in with the way back to the same order', async () => {
    const res = await shop.browser().get(emailLink).expect(303);
    expect(res.headers.location).toBe(`/login?next=${encodeURIComponent(emailLink)}`);
  });

  it('returns to the order after signing in with the form', async () => {
    const agent = shop.browser();
    const login = (await agent.get(emailLink).expect(303)).headers.location as string;
    const signedIn = await signInWithForm(agent, login);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe(emailLink);
    const order = await agent.get(emailLink).expect(200);
    expect(order.text).toContain('Order Confirmed!');
    expect(order.text).toContain(`#${orderId}`);
  });

  it('keeps the way back when the first attempt fails', async () => {
    const agent = shop.browser();
    const wrong = await signInWithForm(agent, `/login?next=${encodeURIComponent(emailLink)}`, { password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(`name="next" value="${emailLink}"`);
  });

  it('returns to the order after signing in with JSON', async () => {
    const api = new ApiBrowser(shop.browser());
    const res = await api.send('post', '/api/auth/login', { email: buyer.parent.email, password: buyer.parent.password, next: emailLink });
    expect(res.status).toBe(200);
    expect(res.body.redirectUrl).toBe(emailLink);
  });

  it('sends a parent already signed in straight on from the sign-in page', async () => {
    const res = await buyer.get(`/login?next=${encodeURIComponent(emailLink)}`).expect(303);
    expect(res.headers.location).toBe(emailLink);
  });
});

describe('a way back that leaves the shop is refused', () => {
  it.each(EVIL)('the sign-in page does not carry %j', async (next) => {
    const page = await shop
      .browser()
      .get(`/login?next=${encodeURIComponent(next)}`)
      .expect(200);
    expect(page.text).not.toContain('name="next"');
    expect(page.text).not.toContain('evil.example');
  });

  it.each(EVIL)('the form sign-in lands on the dashboard instead of %j', async (next) => {
    const res = await signInWithForm(shop.browser(), '/login', { next });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard');
  });

  it.each(EVIL)('the JSON sign-in answers the dashboard instead of %j', async (next) => {
    const api = new ApiBrowser(shop.browser());
    const res = await api.send('post', '/api/auth/login', { email: buyer.parent.email, password: buyer.parent.password, next });
    expect(res.status).toBe(200);
    expect(res.body.redirectUrl).toBe('/dashboard');
  });

  it.each(EVIL)('a signed-in parent on the sign-in page goes to the dashboard instead of %j', async (next) => {
    const res = await buyer.get(`/login?next=${encodeURIComponent(next)}`).expect(303);
    expect(res.headers.location).toBe('/dashboard');
  });
});

describe("'Order Not Found'", () => {
  /** The links inside the confirmation card (the header and footer have their own). */
  function cardLinks(html: string): string[] {
    const card = /<section class="card confirmation">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    return [...card.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);
  }

  it('offers one way home and the contact page, for no such order and for an order that is not theirs', async () => {
    const stranger = new ApiBrowser(shop.browser());
    await stranger.signUp({ email: `stranger.${Date.now()}@example.com`, password: 'story-time-42', firstName: 'Kit', lastName: 'Moss' });
    for (const path of ['/order-confirmation?orderId=999999', emailLink]) {
      const res = await stranger.get(path).expect(404);
      expect(res.text).toContain('Order Not Found');
      const links = cardLinks(res.text);
      expect(
        links.filter((href) => href === '/'),
        path,
      ).toHaveLength(1);
      expect(links, path).toContain('/contact');
    }
  });

  it('is what a visitor sees without an order id, with one way home and the contact page', async () => {
    const res = await shop.browser().get('/order-confirmation').expect(404);
    expect(res.text).toContain('Order Not Found');
    const links = cardLinks(res.text);
    expect(links.filter((href) => href === '/')).toHaveLength(1);
    expect(links).toContain('/contact');
  });
});
