// A parent whose card was declined has an account (guest checkout makes it before the payment).
// Coming back later in a new session with the same email and password, the guest checkout
// offers to sign in right there: through the one sign-in door (/api/auth/login, or /login
// without script), so the same throttles and lockout count it, and back to the checkout with
// the cart. A wrong password is told in the sign-in form's words and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { Secret } from 'otpauth';
import { toCents } from '../../../src/lib/money.ts';
import { currentCode } from '../../../src/features/admin/access/two-factor.ts';
import { User } from '../../../src/models/User.ts';
import { buildTestShop, flushMail, formToken, type TestShop } from '../../helpers/app.ts';
import { Buyer, CARDS, SHIPPING } from '../../helpers/checkout.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { submitTwoFactorCode } from '../../helpers/operator.ts';

const BOOK = 1;
const TAKEN = 'This email is already registered. Please use a different email or sign in.';
const LOGIN_FAILED = 'Invalid email or password';

let shop: TestShop;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: smtp.url, TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await shop.close();
  await smtp.close();
});

// Each parent comes from an address of their own, so the per-address throttle stays out of the way.
let address = 0;
function fromOwnAddress<T extends Buyer>(buyer: T, ip = `10.9.0.${++address}`): T {
  for (const method of ['get', 'post', 'put', 'delete'] as const) {
    const original = buyer.agent[method].bind(buyer.agent);
    buyer.agent[method] = (url: string) => original(url).set('x-forwarded-for', ip);
  }
  return buyer;
}

/** A parent who made their account at guest checkout and whose card was declined. */
async function declinedParent(): Promise<Buyer> {
  const first = fromOwnAddress(new Buyer(shop));
  await first.add(BOOK);
  const { stripeCustomerId } = await first.createAccount();
  const totals = await first.totals();
  expect((await first.startPayment({ stripeCustomerId, totalAmount: totals.body.total })).status).toBe(200);
  const declined = await first.confirm(CARDS.declined);
  expect(declined.error).toBe('Your card was declined.');
  return first;
}

/** The same parent later, in a new browser: the books put in the cart again, at the guest checkout. */
async function comesBack(parent: Buyer['parent']): Promise<Buyer> {
  const again = fromOwnAddress(new Buyer(shop));
  again.parent = parent;
  await again.add(BOOK);
  return again;
}

const ordersOf = async (email: string) => {
  const user = await User.query(shop.db).findOne({ email });
  return shop.db('orders').where({ user_id: user!.id });
};
const cartOf = async (buyer: Buyer) => (await buyer.get('/api/cart').expect(200)).body as Array<{ bookId: number; quantity: number }>;

const signInAtCheckout = (buyer: Buyer, password = buyer.parent.password) =>
  buyer.send('post', '/api/auth/login', { email: buyer.parent.email, password, next: '/authcheckout' });

describe('a returning parent whose card was declined', () => {
  it('is offered to sign in at the guest checkout, signs in, and pays: one order', async () => {
    const first = await declinedParent();
    expect(await ordersOf(first.parent.email)).toHaveLength(0);

    const back = await comesBack(first.parent);
    const page = await back.get('/checkout').expect(200);
    // The live check under the email offers the sign-in with the password typed in the form, going on to the signed-in checkout.
    expect(page.text).toContain('"signIn":{"passwordId":"co-password","next":"/authcheckout"}');
    // Making the account again is still refused: the offer is the way on.
    const again = await back.send('post', '/api/create-user-and-customer', { ...back.parent, shippingInfo: SHIPPING });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(TAKEN);

    const signedIn = await signInAtCheckout(back);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.redirectUrl).toBe('/authcheckout');
    expect((await back.get('/checkout').expect(303)).headers.location).toBe('/authcheckout');
    const checkout = await back.get('/authcheckout').expect(200);
    expect(checkout.text).toContain(`Signed in as <strong>${back.parent.email}</strong>`);

    const totals = await back.totals();
    expect(totals.status).toBe(200);
    const started = await back.startPayment({ amount: toCents(totals.body.total) });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await back.confirm(CARDS.success)).status).toBe('succeeded');
    const completed = await back.complete();
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);

    const orders = await ordersOf(back.parent.email);
    expect(orders).toHaveLength(1);
    expect(orders[0].id).toBe(completed.body.order.id);
    const items = await shop.db('order_items').where({ order_id: orders[0].id });
    expect(items.map((item: { bookId: number; quantity: number }) => [item.bookId, item.quantity])).toEqual([[BOOK, 1]]);
    expect(await cartOf(back)).toEqual([]);
  });

  it('keeps the cart through the sign-in: the book put back is bought once, not twice', async () => {
    const first = await declinedParent();
    // The declined checkout's book waits in the account's cart; the parent puts it back as a visitor.
    const back = await comesBack(first.parent);
    expect((await signInAtCheckout(back)).status).toBe(200);
    const cart = await cartOf(back);
    expect(cart.map((line) => [line.bookId, line.quantity])).toEqual([[BOOK, 1]]);
    const title = ((await shop.db('books').where({ id: BOOK }).first()) as { title: string }).title;
    expect((await back.get('/authcheckout').expect(200)).text).toContain(title);
  });
});

describe('a wrong password at the checkout’s sign-in', () => {
  it('gets the words of /login and changes nothing: still a guest with the same cart', async () => {
    const first = await declinedParent();
    const back = await comesBack(first.parent);
    const before = await cartOf(back);
    const usersBefore = await shop.db('users').count({ n: '*' }).first();

    const refused = await signInAtCheckout(back, 'not-my-password');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: LOGIN_FAILED });
    // The same words as the sign-in form's.
    const login = await back.get('/login').expect(200);
    const viaForm = await back.agent
      .post('/login')
      .type('form')
      .send({ _csrf: formToken(login.text), email: back.parent.email, password: 'not-my-password' });
    expect(viaForm.status).toBe(401);
    expect(viaForm.text).toContain('Login Failed');
    expect(viaForm.text).toContain(LOGIN_FAILED);

    expect(await cartOf(back)).toEqual(before);
    expect((await back.get('/checkout').expect(200)).text).toContain('data-variant="guest"');
    expect(await shop.db('users').count({ n: '*' }).first()).toEqual(usersBefore);
  });

  it('counts towards the lockout: the fifth failure secures the account, and /login is locked too', async () => {
    const first = await declinedParent();
    const back = await comesBack(first.parent);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await signInAtCheckout(back, `wrong-${attempt}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: LOGIN_FAILED });
    }
    const fifth = await signInAtCheckout(back, 'wrong-5');
    expect(fifth.status).toBe(401);
    expect(fifth.body).toMatchObject({ message: 'REDIRECT_TO_FAILED_LOGIN', redirectUrl: '/failedlogin' });
    await flushMail(shop);
    expect(smtp.received.filter((m) => m.rcptTo.includes(back.parent.email)).some((m) => /temporary password/i.test(m.raw))).toBe(true);

    // The right password no longer opens it, at /login either, from another browser and address.
    const elsewhere = fromOwnAddress(new Buyer(shop));
    const page = await elsewhere.get('/login').expect(200);
    const viaForm = await elsewhere.agent
      .post('/login')
      .type('form')
      .send({ _csrf: formToken(page.text), email: back.parent.email, password: back.parent.password });
    expect(viaForm.status).toBe(303);
    expect(viaForm.headers.location).toBe('/failedlogin');
  });

  it('failures at /login count towards the checkout’s sign-in too: one allowance for both', async () => {
    const first = await declinedParent();
    const back = await comesBack(first.parent);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const page = await back.get('/login').expect(200);
      const res = await back.agent
        .post('/login')
        .type('form')
        .send({ _csrf: formToken(page.text), email: back.parent.email, password: `wrong-${attempt}` });
      expect(res.status).toBe(401);
    }
    back.token = '';
    const fifth = await signInAtCheckout(back, 'wrong-5');
    expect(fifth.body).toMatchObject({ message: 'REDIRECT_TO_FAILED_LOGIN', redirectUrl: '/failedlogin' });
  });
});

describe('without JavaScript', () => {
  /** The guest checkout's Parent Login, followed and its form posted, as a browser without script. */
  async function signInFromCheckout(agent: supertest.Agent, email: string, password: string) {
    const checkout = await agent.get('/checkout').expect(200);
    const href = /href="(\/login\?next=[^"]+)"[^>]*>Parent Login</.exec(checkout.text)?.[1];
    expect(href).toBe('/login?next=%2Fcheckout');
    const login = await agent.get(href!).expect(200);
    const next = /name="next" value="([^"]*)"/.exec(login.text)?.[1];
    expect(next).toBe('/checkout');
    return agent
      .post('/login')
      .type('form')
      .send({ _csrf: formToken(login.text), email, password, next });
  }

  it('the checkout’s Parent Login signs in and comes back to the checkout, signed in, with the cart', async () => {
    const first = await declinedParent();
    const back = await comesBack(first.parent);
    const res = await signInFromCheckout(back.agent, back.parent.email, back.parent.password);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/checkout');
    expect((await back.get('/checkout').expect(303)).headers.location).toBe('/authcheckout');
    const checkout = await back.get('/authcheckout').expect(200);
    expect(checkout.text).toContain(`Signed in as <strong>${back.parent.email}</strong>`);
    back.token = '';
    expect((await cartOf(back)).map((line) => line.bookId)).toEqual([BOOK]);
  });

  it('a wrong password is refused in /login’s words and keeps the way back to the checkout', async () => {
    const first = await declinedParent();
    const back = await comesBack(first.parent);
    const res = await signInFromCheckout(back.agent, back.parent.email, 'not-my-password');
    expect(res.status).toBe(401);
    expect(res.text).toContain('Login Failed');
    expect(res.text).toContain(LOGIN_FAILED);
    expect(res.text).toContain('name="next" value="/checkout"');
    expect((await back.get('/checkout').expect(200)).text).toContain('data-variant="guest"');
  });
});

describe('an operator with a second factor signing in at checkout', () => {
  it('still goes through the code step, then back to the checkout with the cart', async () => {
    const first = await declinedParent();
    const secret = new Secret({ size: 20 }).base32;
    await User.query(shop.db)
      .findOne({ email: first.parent.email })
      .patch({ role: 'operator', totpSecret: secret, totpEnrolledAt: new Date() });
    const back = await comesBack(first.parent);

    const half = await signInAtCheckout(back);
    expect(half.status).toBe(401);
    expect(half.body.redirectUrl).toBe('/admin/two-factor');
    // Not signed in by the password alone: the checkout sends the session to its code step.
    expect((await back.get('/authcheckout').expect(303)).headers.location).toBe('/admin/two-factor');

    const coded = await submitTwoFactorCode(back.agent, currentCode(secret));
    expect(coded.status).toBe(303);
    expect(coded.headers.location).toBe('/authcheckout');
    await back.get('/authcheckout').expect(200);
    back.token = '';
    expect((await cartOf(back)).map((line) => line.bookId)).toEqual([BOOK]);
  });
});
