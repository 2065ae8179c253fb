import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { ApiBrowser, newParent } from '../../helpers/accounts.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

const browser = () => new ApiBrowser(shop.browser());

async function registered() {
  const parent = newParent();
  await browser()
    .signUp(parent)
    .then((r) => expect(r.status).toBe(201));
  return parent;
}

describe('sign-up', () => {
  it('creates the account, signs the parent in and records a welcome email', async () => {
    const b = browser();
    const parent = newParent({ lastName: '' });
    const res = await b.signUp(parent);
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      email: parent.email,
      firstName: 'Amara',
      lastName: '',
      createdAt: expect.any(String),
      isAuthenticated: true,
    });
    const me = await b.get('/api/auth/user').expect(200);
    expect(me.body.firstName).toBe('Amara');
    expect((await b.get('/api/session')).body).toMatchObject({ isAuthenticated: true, userId: res.body.user.id });
    const mail = await shop.db('outbox').where({ toAddress: parent.email });
    expect(mail.map((m) => m.subject)).toEqual(['Welcome to Little Lantern Books']);
  });

  it('stores an argon2id hash, never the password', async () => {
    const parent = await registered();
    const row = await shop.db('users').where({ email: parent.email }).first();
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$/);
    expect(row.passwordHash).not.toContain(parent.password);
  });

  it.each([
    [{ email: '' }, 'Please fill in all required fields'],
    [{ firstName: '  ' }, 'Please fill in all required fields'],
    [{ password: '' }, 'Please fill in all required fields'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ password: '12345' }, 'Password must be at least 6 characters long'],
    [{ confirmPassword: 'something-else' }, 'Passwords do not match'],
  ])('refuses %o with the spec message and creates nothing', async (change, message) => {
    const base = { ...newParent(), ...change };
    const parent = { confirmPassword: base.password, ...base };
    const res = await browser().send('post', '/api/auth/signup', parent);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    expect(await shop.db('users').where({ email: String(parent.email).toLowerCase() })).toHaveLength(0);
  });

  it('refuses an email that is already registered, whatever its case', async () => {
    const parent = await registered();
    const res = await browser().signUp({ ...parent, email: parent.email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This email is already registered. Please use a different email or sign in.');
  });
});

describe('sign-in and sign-out', () => {
  it('signs in and answers the user', async () => {
    const parent = await registered();
    const res = await browser().signIn(parent.email, parent.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { email: parent.email, isAuthenticated: true }, redirectUrl: '/dashboard' });
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const parent = await registered();
    const wrong = await browser().signIn(parent.email, 'not-the-password');
    const unknown = await browser().signIn('nobody@example.com', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("refuses empty fields with 'Please fill in all fields'", async () => {
    const res = await browser().send('post', '/api/auth/login', { email: 'a@example.com' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Please fill in all fields' });
  });

  it('makes a session cookie from before sign-in useless after it', async () => {
    const parent = await registered();
    const b = browser();
    const before = await b.get('/api/session');
    const oldCookie = String(before.headers['set-cookie']).split(';')[0]!;
    expect((await b.signIn(parent.email, parent.password)).status).toBe(200);
    await b.get('/api/auth/user').expect(200);
    const replay = await shop.browser().get('/api/auth/user').set('cookie', oldCookie);
    expect(replay.status).toBe(401);
  });

  it('signs out: the session is destroyed', async () => {
    const parent = await registered();
    const b = browser();
    await b.signIn(parent.email, parent.password);
    const cookie = String((await b.get('/api/session')).request.cookies);
    const out = await b.send('post', '/api/auth/logout');
    expect(out.body).toEqual({ message: 'Logged Out' });
    expect(out.headers['clear-site-data']).toBe('"storage"');
    await b.get('/api/auth/user').expect(401);
    await shop.browser().get('/api/auth/user').set('cookie', cookie).expect(401);
  });
});

describe('profile and password', () => {
  it('edits first and last name; the email cannot be changed', async () => {
    const parent = newParent();
    const b = browser();
    await b.signUp(parent);
    const res = await b.send('put', '/api/auth/profile', { firstName: 'Ama', lastName: 'Mensah', email: 'other@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Ama', lastName: 'Mensah', email: parent.email });
  });

  it("requires a first name ('First name is required.') and a signed-in parent", async () => {
    const b = browser();
    await b.signUp(newParent());
    expect((await b.send('put', '/api/auth/profile', { firstName: ' ', lastName: 'X' })).body).toEqual({
      message: 'First name is required.',
    });
    expect((await browser().send('put', '/api/auth/profile', { firstName: 'A', lastName: 'B' })).status).toBe(401);
  });

  it('changes the password only with the current one, and mails a notice', async () => {
    const parent = newParent();
    const b = browser();
    await b.signUp(parent);
    const wrong = await b.send('put', '/api/auth/password', { currentPassword: 'nope-nope', newPassword: 'brand-new-99' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Your current password is not correct.');
    expect((await b.send('put', '/api/auth/password', { currentPassword: parent.password, newPassword: '123' })).body.message).toBe(
      'Password must be at least 6 characters long',
    );
    expect(
      (
        await b.send('put', '/api/auth/password', {
          currentPassword: parent.password,
          newPassword: 'brand-new-99',
          confirmPassword: 'brand-new-98',
        })
      ).body.message,
    ).toBe('New passwords do not match.');
    const ok = await b.send('put', '/api/auth/password', { currentPassword: parent.password, newPassword: 'brand-new-99' });
    expect(ok.body).toEqual({ message: 'Password Changed' });
    expect((await browser().signIn(parent.email, parent.password)).status).toBe(401);
    expect((await browser().signIn(parent.email, 'brand-new-99')).status).toBe(200);
    const subjects = (await shop.db('outbox').where({ toAddress: parent.email })).map((m) => m.subject);
    expect(subjects).toContain('Your password was changed');
  });
});

describe('POST /api/check-email', () => {
  it('says whether an address is registered', async () => {
    const parent = await registered();
    expect((await browser().send('post', '/api/check-email', { email: parent.email })).body).toEqual({ exists: true });
    expect((await browser().send('post', '/api/check-email', { email: 'free@example.com' })).body).toEqual({ exists: false });
  });

  it('refuses a malformed address', async () => {
    const res = await browser().send('post', '/api/check-email', { email: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Please enter a valid email address' });
  });
});

describe('GET /api/orders', () => {
  it('is for signed-in parents only and shows only their own orders', async () => {
    await browser().get('/api/orders').expect(401);
    const mine = browser();
    const me = (await mine.signUp(newParent())).body.user;
    const other = (await browser().signUp(newParent())).body.user;
    const order = (userId: number) => ({
      userId,
      status: 'succeeded',
      subtotal: '16.99',
      shipping: '7.99',
      handling: '2.50',
      tax: '1.10',
      totalAmount: '28.58',
      shippingAddress: '1 Elm St',
      city: 'Portland',
      zipCode: '97205',
    });
    const [myOrder] = await shop.db('orders').insert(order(me.id));
    await shop.db('orders').insert(order(other.id));
    await shop.db('orderItems').insert({ orderId: Number(myOrder), bookId: 1, title: 'Pip', quantity: 1, price: '16.99' });
    const res = await mine.get('/api/orders').expect(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      id: Number(myOrder),
      status: 'succeeded',
      totalAmount: '28.58',
      items: [{ quantity: 1, price: '16.99', book: { title: expect.any(String) } }],
      breakdown: { subtotal: '16.99', shipping: '7.99', handling: '2.50', tax: '1.10', total: '28.58' },
    });
  });
});

describe('the cart across sign-in', () => {
  it("merges the visitor cart into the account's, a book in both kept once, and follows the parent to another browser", async () => {
    const parent = newParent();
    const first = browser();
    await first.signUp(parent);
    await first.send('post', '/api/cart', { bookId: 1, quantity: 2 });
    await first.send('post', '/api/auth/logout');

    const phone = browser();
    await phone.send('post', '/api/cart', { bookId: 1, quantity: 1 });
    await phone.send('post', '/api/cart', { bookId: 3, quantity: 1 });
    expect((await phone.signIn(parent.email, parent.password)).status).toBe(200);
    const merged = (await phone.get('/api/cart')).body.map((l: { bookId: number; quantity: number }) => [l.bookId, l.quantity]);
    // Book 1 was in both carts: the larger quantity, not the sum.
    expect(merged.sort()).toEqual([
      [1, 2],
      [3, 1],
    ]);

    const laptop = browser();
    await laptop.signIn(parent.email, parent.password);
    expect((await laptop.get('/api/cart')).body).toHaveLength(2);
  });
});
