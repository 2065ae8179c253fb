import type supertest from 'supertest';
import { Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES as M } from '../../../src/features/accounts/accounts.messages.ts';
import { HALF_SIGN_IN_MS } from '../../../src/features/accounts/second-step.ts';
import { currentCode, TWO_FACTOR_MESSAGES } from '../../../src/features/admin/access/two-factor.ts';
import { randomSecret, secretHash } from '../../../src/features/accounts/passwords.ts';
import { AccountToken } from '../../../src/models/AccountToken.ts';
import { User } from '../../../src/models/User.ts';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';
import { ApiBrowser, newParent } from '../../helpers/accounts.ts';
import { placePaidOrder } from '../../helpers/orders.ts';
import { signInWithPassword } from '../../helpers/operator.ts';

// A password alone is half a sign-in for an account with a second factor: the session reaches
// nothing but the code step and signing out, on every router of the shop (src/app.ts), until
// the code is given. Then it is an ordinary signed-in session with a new id.

const STEP = '/admin/two-factor';

let shop: TestShop;
/** An operator who owns a paid order, so that a leak would show. */
let who: { id: number; email: string; password: string; secret: string };
let orderId: number;

beforeAll(async () => {
  shop = await buildTestShop();
  const placed = await placePaidOrder(shop);
  orderId = placed.orderId;
  const secret = new Secret({ size: 20 }).base32;
  const user = (await User.query(shop.db).findOne({ email: placed.buyer.parent.email }))!;
  await User.query(shop.db).findById(user.id).patch({ role: 'operator', totpSecret: secret, totpEnrolledAt: new Date() });
  who = { id: user.id, email: user.email, password: placed.buyer.parent.password, secret };
});
afterAll(async () => {
  await shop.close();
});

/** A current code that has not been used: each step is accepted once, so the last one is forgotten first. */
async function freshCode(): Promise<string> {
  await User.query(shop.db).findById(who.id).patch({ totpLastStep: null });
  return currentCode(who.secret);
}

/** A browser that gave the password at the sign-in form and stands at the code step, with that page's form token. */
async function halfSignedIn(account = who): Promise<{ agent: supertest.Agent; token: string }> {
  const agent = shop.browser();
  const res = await signInWithPassword(agent, account);
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe(STEP);
  return { agent, token: formToken((await agent.get(STEP).expect(200)).text) };
}

async function giveCode(agent: supertest.Agent, token: string, code: string): Promise<supertest.Response> {
  return agent.post(STEP).type('form').send({ _csrf: token, code });
}

const sessionCookie = (res: supertest.Response) =>
  ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('shop.sid='))
    ?.split(';')[0];

/** Everything a request could change. */
async function snapshot(): Promise<string> {
  const tables = [
    'users',
    'orders',
    'order_items',
    'carts',
    'cart_items',
    'checkouts',
    'stock_holds',
    'books',
    'contact_messages',
    'back_in_stock_requests',
    'account_tokens',
    'recovery_codes',
    'audit_log',
    'outbox',
    'settings',
    'discount_codes',
  ];
  // The code step's own bookkeeping (the last TOTP step taken) is not a change a request made.
  const row = (r: object) =>
    JSON.stringify(r, (key, value: unknown) => (key === 'totpLastStep' || key === 'totp_last_step' ? undefined : value));
  const rows = await Promise.all(tables.map(async (t) => (await shop.db(t).select()).map(row).sort()));
  return JSON.stringify(rows);
}

const real = (path: string) => path.replace(':order', String(orderId));

/** Every page of every router in src/app.ts (GET). */
const PAGES = [
  '/',
  '/about',
  '/privacy',
  '/books',
  '/books/1',
  '/cart',
  '/contact',
  '/login',
  '/reset-password',
  '/change-password',
  '/failedlogin',
  '/dashboard',
  '/dashboard?tab=orders',
  '/dashboard?tab=settings',
  '/checkout',
  '/simple-checkout',
  '/authcheckout',
  '/order-confirmation?orderId=:order',
  '/notify/unsubscribe',
  '/admin',
  '/admin/orders',
  '/admin/orders/:order',
  '/admin/orders/:order/packing-slip',
  '/admin/to-pack',
  '/admin/inbox',
  '/admin/books',
  '/admin/books/1/cover',
  '/admin/discounts',
  '/admin/settings',
  '/admin/exports/orders.csv',
];

/** Every kind of form a page posts. */
const FORMS = [
  '/login',
  '/signup',
  '/reset-password',
  '/change-password',
  '/dashboard/profile',
  '/dashboard/password',
  '/dashboard/address',
  '/dashboard/orders/:order/buy-again',
  '/cart',
  '/cart/items/1',
  '/cart/clear',
  '/checkout/discount',
  '/contact',
  '/books/1/notify',
  '/admin/two-factor/enrol',
  '/admin/orders/:order/ship',
  '/admin/books/1/stock',
  '/admin/books/1/hide',
  '/admin/settings',
  '/admin/discounts',
];
const FORM_BODY = {
  firstName: 'Mallory',
  lastName: 'Taken',
  email: 'mallory@example.com',
  password: 'mallory-password',
  newPassword: 'mallory-password',
  confirmPassword: 'mallory-password',
  currentPassword: 'x',
  address: '1 Elm Street',
  city: 'Portland',
  zipCode: '97205',
  bookId: '1',
  quantity: '3',
  code: 'SAVE10',
  subject: 'Hello',
  description: 'Hello there',
  currentMember: 'no',
  carrier: 'USPS',
  trackingNumber: '9400100000000000000000',
  inStock: '0',
  lowStockThreshold: '1',
};

/** Every JSON route of every API router in src/app.ts but the session's own and signing out. */
const APIS: Array<[method: 'get' | 'post' | 'put' | 'delete', path: string]> = [
  ['get', '/api/auth/user'],
  ['post', '/api/auth/login'],
  ['post', '/api/auth/signup'],
  ['post', '/api/auth/reset-password'],
  ['put', '/api/auth/profile'],
  ['put', '/api/auth/password'],
  ['post', '/api/check-email'],
  ['get', '/api/books'],
  ['get', '/api/books/1'],
  ['get', '/api/cart'],
  ['post', '/api/cart'],
  ['put', '/api/cart/1'],
  ['delete', '/api/cart/1'],
  ['delete', '/api/cart'],
  ['get', '/api/orders'],
  ['get', '/api/orders/:order'],
  ['get', '/api/orders/:order/breakdown'],
  ['get', '/api/orders/:order/stripe-status'],
  ['post', '/api/calculate-totals'],
  ['post', '/api/validate-address'],
  ['post', '/api/create-user-and-customer'],
  ['post', '/api/create-payment-intent-authenticated'],
  ['post', '/api/complete-order'],
  ['post', '/api/sandbox/confirm'],
  ['post', '/api/contact'],
  ['get', '/api/system-status'],
  ['get', '/api/no-such-thing'],
];
const API_BODY = {
  ...FORM_BODY,
  shippingInfo: { address: '1 Elm Street', city: 'Portland', zipCode: '97205' },
  amount: 1,
  stripePaymentIntentId: 'pi_x',
};

describe('the password of an account with a second factor', () => {
  it('at the sign-in form: a new session id that signs nobody in, sent to the code step', async () => {
    const agent = shop.browser();
    const page = await agent.get('/login').expect(200);
    const before = sessionCookie(page);
    const res = await agent
      .post('/login')
      .type('form')
      .send({ _csrf: formToken(page.text), email: who.email, password: who.password });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(STEP);
    expect(sessionCookie(res)).toBeDefined();
    expect(sessionCookie(res)).not.toBe(before);
    const session = await agent.get('/api/session').expect(200);
    expect(session.body).toMatchObject({ isAuthenticated: false, userId: null });
    const step = await agent.get(STEP).expect(200);
    expect(step.text).toContain('name="code"');
    // Nobody is greeted in the header: the session is not signed in.
    expect(step.text).not.toContain('Hello, ');
  });

  it('at the API: 401, a readable message, where to go next and the new form token; not signed in', async () => {
    const api = new ApiBrowser(shop.browser());
    const res = await api.signIn(who.email, who.password);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: M.secondStepNeeded, redirectUrl: STEP, csrfToken: expect.any(String) });
    expect(res.body).not.toHaveProperty('user');
    expect(sessionCookie(res)).toBeDefined();
    expect((await api.get('/api/session').expect(200)).body).toMatchObject({ isAuthenticated: false, userId: null });
    const user = await api.get('/api/auth/user');
    expect(user.status).toBe(401);
    expect(user.body).toEqual({ message: M.secondStepNeeded, redirectUrl: STEP });
    // The token it was given signs it out.
    expect((await api.send('post', '/api/auth/logout')).status).toBe(200);
    expect((await api.get('/api/auth/user')).body).toEqual({ message: 'Not signed in' });
  });

  it('a wrong password is refused as for anyone, and makes no session at the step', async () => {
    const api = new ApiBrowser(shop.browser());
    const res = await api.signIn(who.email, 'not-the-password');
    expect(res.status).toBe(401);
    expect(res.body.redirectUrl).toBeUndefined();
    expect((await api.get(STEP)).headers.location).toBe('/login');
  });
});

describe('a half-signed-in session gets nothing', () => {
  it.each(PAGES)('GET %s: sent to the code step', async (page) => {
    const { agent } = await halfSignedIn();
    const res = await agent.get(real(page));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(STEP);
  });

  it.each(FORMS)('POST %s: sent to the code step, nothing changes', async (form) => {
    const { agent, token } = await halfSignedIn();
    const before = await snapshot();
    const res = await agent
      .post(real(form))
      .type('form')
      .send({ _csrf: token, ...FORM_BODY });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(STEP);
    expect(await snapshot()).toBe(before);
  });

  it.each(APIS)('%s %s: 401 with a readable message and the code step, nothing changes', async (method, path) => {
    const { agent, token } = await halfSignedIn();
    const before = await snapshot();
    const req = agent[method](real(path)).set('x-csrf-token', token);
    const res = await (method === 'get' || method === 'delete' ? req : req.send(API_BODY));
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ message: M.secondStepNeeded, redirectUrl: STEP });
    expect(await snapshot()).toBe(before);
  });

  it('GET /api/session answers as for a visitor, with a form token', async () => {
    const { agent } = await halfSignedIn();
    const res = await agent.get('/api/session').expect(200);
    expect(res.body).toMatchObject({ isAuthenticated: false, userId: null, csrfToken: expect.any(String) });
  });

  it('signing out is open to it', async () => {
    const { agent, token } = await halfSignedIn();
    const res = await agent.post('/logout').type('form').send({ _csrf: token });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/?loggedout=1');
    expect((await agent.get(STEP)).headers.location).toBe('/login');
    await agent.get('/').expect(200);
  });

  it('a wrong code keeps it at the step, and still gets nothing', async () => {
    const { agent, token } = await halfSignedIn();
    const accepted = [-30_000, 0, 30_000].map((shift) => currentCode(who.secret, Date.now() + shift));
    let wrong = '000000';
    while (accepted.includes(wrong)) wrong = String(Number(wrong) + 1).padStart(6, '0');
    const res = await giveCode(agent, token, wrong);
    expect(res.status).toBe(400);
    expect(res.text).toContain(TWO_FACTOR_MESSAGES.wrongCode.replace(/'/g, '&#39;'));
    expect((await agent.get('/dashboard')).headers.location).toBe(STEP);
    expect((await agent.get('/api/orders')).status).toBe(401);
  });

  it.each([
    ['no code', {}],
    ['an empty code', { code: '' }],
    ['a code sent twice', { code: ['123456', '654321'] }],
    ['a code far too long', { code: '1'.repeat(500) }],
  ])('%s at the step: a 400 a person can read, never a 500', async (_name, body) => {
    const { agent, token } = await halfSignedIn();
    const res = await agent
      .post(STEP)
      .type('form')
      .send({ _csrf: token, ...body });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/Please enter a code\.|That code is too long\./);
    expect((await agent.get('/dashboard')).headers.location).toBe(STEP);
  });

  it('is forgotten when the code does not come within the time allowed: the password is asked for again', async () => {
    const { agent } = await halfSignedIn();
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + HALF_SIGN_IN_MS + 1000);
    try {
      expect((await agent.get(STEP)).headers.location).toBe('/login');
      const login = await agent.get('/login').expect(200);
      expect(login.text).toContain(M.secondStepExpired.text);
      expect((await agent.get('/dashboard')).headers.location).toBe('/login');
    } finally {
      clock.mockRestore();
    }
  });

  it('ends when the password changes meanwhile (another session, or the console)', async () => {
    const { agent } = await halfSignedIn();
    await User.query(shop.db)
      .findById(who.id)
      .patch({ sessionVersion: (await User.query(shop.db).findById(who.id))!.sessionVersion + 1 });
    expect((await agent.get(STEP)).headers.location).toBe('/login');
    expect((await agent.get('/api/orders')).status).toBe(401);
    expect((await agent.get('/api/orders')).body).toEqual({ message: 'Please sign in to continue.' });
  });
});

describe('after the code', () => {
  it('the session id is new, the cart joins the account, and every door opens', async () => {
    const api = new ApiBrowser(shop.browser());
    // A visitor's cart, before signing in.
    expect((await api.send('post', '/api/cart', { bookId: 2, quantity: 1 })).status).toBe(201);
    const signIn = await api.signIn(who.email, who.password);
    expect(signIn.status).toBe(401);
    const halfCookie = sessionCookie(signIn)!;
    const step = await api.get(STEP).expect(200);
    const passed = await giveCode(api.agent, formToken(step.text), await freshCode());
    expect(passed.status).toBe(303);
    expect(passed.headers.location).toBe('/admin');
    const fullCookie = sessionCookie(passed);
    expect(fullCookie).toBeDefined();
    expect(fullCookie).not.toBe(halfCookie);
    await api.refreshToken();

    expect((await api.get('/api/session').expect(200)).body).toMatchObject({ isAuthenticated: true, userId: who.id });
    expect((await api.get('/api/auth/user').expect(200)).body).toMatchObject({ email: who.email });
    const orders = await api.get('/api/orders').expect(200);
    expect(orders.body.map((o: { id: number }) => o.id)).toContain(orderId);
    await api.get(`/api/orders/${orderId}`).expect(200);
    await api.get(`/api/orders/${orderId}/breakdown`).expect(200);
    const cart = await api.get('/api/cart').expect(200);
    expect(cart.body.map((line: { book: { id: number } }) => line.book.id)).toContain(2);
    await api.get('/api/system-status').expect(200);
    for (const page of ['/', '/books', '/cart', '/dashboard', '/dashboard?tab=orders', '/authcheckout', '/admin', '/admin/orders']) {
      const res = await api.get(page);
      expect(res.status, page).toBe(200);
    }
    expect((await api.get('/checkout')).headers.location).toBe('/authcheckout');
    expect((await api.send('put', '/api/auth/profile', { firstName: 'Olive', lastName: 'Page' })).status).toBe(200);

    // The half-signed-in cookie is worth nothing now.
    const old = await shop.browser().get('/api/auth/user').set('Cookie', halfCookie);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ message: 'Not signed in' });
  });

  it('follows the page the sign-in was going to', async () => {
    const agent = shop.browser();
    const login = await agent.get(`/login?next=${encodeURIComponent(`/admin/orders/${orderId}`)}`).expect(200);
    const res = await agent
      .post('/login')
      .type('form')
      .send({ _csrf: formToken(login.text), email: who.email, password: who.password, next: `/admin/orders/${orderId}` });
    expect(res.headers.location).toBe(STEP);
    const step = await agent.get(STEP).expect(200);
    const passed = await giveCode(agent, formToken(step.text), await freshCode());
    expect(passed.headers.location).toBe(`/admin/orders/${orderId}`);
    await agent.get(`/admin/orders/${orderId}`).expect(200);
  });

  it('a session signed in before the account set up its second factor waits for the code too', async () => {
    const parent = newParent();
    const api = new ApiBrowser(shop.browser());
    expect((await api.signUp(parent)).status).toBe(201);
    await api.get('/dashboard').expect(200);
    const secret = new Secret({ size: 20 }).base32;
    await User.query(shop.db)
      .patch({ role: 'operator', totpSecret: secret, totpEnrolledAt: new Date() })
      .where({ email: parent.email.toLowerCase() });
    expect((await api.get('/dashboard')).headers.location).toBe(STEP);
    expect((await api.get('/api/auth/user')).status).toBe(401);
    const step = await api.get(STEP).expect(200);
    const passed = await giveCode(api.agent, formToken(step.text), currentCode(secret));
    expect(passed.status).toBe(303);
    await api.get('/dashboard').expect(200);
  });
});

describe('changing the password of an account with a second factor', () => {
  /** A browser past the code step, with its API token. */
  async function signedIn(): Promise<ApiBrowser> {
    const { agent, token } = await halfSignedIn();
    expect((await giveCode(agent, token, await freshCode())).status).toBe(303);
    const api = new ApiBrowser(agent);
    await api.refreshToken();
    return api;
  }
  const passwordHash = async () => (await User.query(shop.db).findById(who.id))!.passwordHash;

  it('PUT /api/auth/password: refused with a clear 400 without a code or with a wrong one, and changes nothing', async () => {
    const api = await signedIn();
    const before = await passwordHash();
    const change = { currentPassword: who.password, newPassword: 'another-lantern-7' };
    const missing = await api.send('put', '/api/auth/password', change);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: M.codeNeeded, field: 'code' });
    const wrong = await api.send('put', '/api/auth/password', { ...change, code: 'zzzz-zzzz-zzzz' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: TWO_FACTOR_MESSAGES.wrongCode, field: 'code' });
    const notText = await api.send('put', '/api/auth/password', { ...change, code: { $ne: '' } });
    expect(notText.status).toBe(400);
    expect(notText.body.message).toBe(M.codeNeeded);
    const tooLong = await api.send('put', '/api/auth/password', { ...change, code: '9'.repeat(41) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(M.codeTooLong);
    // A wrong current password with a right code: the code is not used up.
    const code = await freshCode();
    const wrongPassword = await api.send('put', '/api/auth/password', { ...change, currentPassword: 'nope-nope', code });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.field).toBe('currentPassword');
    expect(await passwordHash()).toBe(before);
    // Still signed in, and the same code now does it.
    const done = await api.send('put', '/api/auth/password', { ...change, code });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await passwordHash()).not.toBe(before);
    await api.get('/api/auth/user').expect(200);
    who.password = change.newPassword;
  });

  it('the dashboard form asks for the code, refuses without it, and takes a current one', async () => {
    const api = await signedIn();
    const page = await api.get('/dashboard?tab=settings').expect(200);
    expect(page.text).toContain('id="settings-code"');
    const before = await passwordHash();
    const form = {
      _csrf: formToken(page.text),
      currentPassword: who.password,
      newPassword: 'third-lantern-9',
      confirmPassword: 'third-lantern-9',
    };
    const refused = await api.agent.post('/dashboard/password').type('form').send(form);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(M.codeNeeded);
    expect(refused.text).toMatch(/id="settings-code"[^>]*aria-invalid="true"/);
    expect(await passwordHash()).toBe(before);
    const done = await api.agent
      .post('/dashboard/password')
      .type('form')
      .send({ ...form, code: await freshCode() });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/dashboard?tab=settings');
    expect(await passwordHash()).not.toBe(before);
    who.password = form.newPassword;
  });

  it('a reset link asks for the code too; with it, the new password is set and the sign-in is whole', async () => {
    // A link as the reset mail carries it.
    const secret = randomSecret();
    await AccountToken.query(shop.db).insert({
      userId: who.id,
      purpose: 'reset-link',
      tokenHash: secretHash(secret),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const agent = shop.browser();
    const page = await agent.get(`/reset-password/${secret}`).expect(200);
    expect(page.text).toContain('id="new-password-code"');
    const before = await passwordHash();
    const form = { _csrf: formToken(page.text), newPassword: 'fourth-lantern-1', confirmPassword: 'fourth-lantern-1' };
    const refused = await agent.post(`/reset-password/${secret}`).type('form').send(form);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(M.codeNeeded);
    expect(await passwordHash()).toBe(before);
    // The form again, as the refusal drew it (its token is the session's now).
    const done = await agent
      .post(`/reset-password/${secret}`)
      .type('form')
      .send({ ...form, _csrf: formToken(refused.text), code: await freshCode() });
    expect(done.status).toBe(303);
    expect(await passwordHash()).not.toBe(before);
    await agent.get('/dashboard').expect(200);
    await agent.get('/admin').expect(200);
    who.password = form.newPassword;
  });

  it('the email address cannot be changed at all: a profile change leaves it as it is', async () => {
    const api = await signedIn();
    const res = await api.send('put', '/api/auth/profile', { firstName: 'Olive', lastName: 'Page', email: 'mallory@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(who.email);
    expect((await User.query(shop.db).findById(who.id))!.email).toBe(who.email);
  });
});

describe('accounts without a second factor', () => {
  it('sign in with the password alone and change it without a code, as before', async () => {
    const parent = newParent();
    const api = new ApiBrowser(shop.browser());
    expect((await api.signUp(parent)).status).toBe(201);
    await api.send('post', '/api/auth/logout');
    await api.refreshToken();
    const res = await api.signIn(parent.email, parent.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ redirectUrl: '/dashboard', user: { email: parent.email.toLowerCase() } });
    await api.get('/dashboard').expect(200);
    const page = await api.get('/dashboard?tab=settings').expect(200);
    expect(page.text).not.toContain('id="settings-code"');
    const change = await api.send('put', '/api/auth/password', { currentPassword: parent.password, newPassword: 'story-time-43' });
    expect(change.status).toBe(200);
  });
});
