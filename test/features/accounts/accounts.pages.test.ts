import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { newParent } from '../../helpers/accounts.ts';
import { buildTestShop, formToken, startSession, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

/** Fills and posts a form the way a browser with JavaScript off does. */
async function submit(agent: supertest.Agent, pagePath: string, action: string, fields: Record<string, string>) {
  const page = await agent.get(pagePath);
  return agent
    .post(action)
    .type('form')
    .send({ _csrf: formToken(page.text), ...fields });
}

async function signedUp(agent = shop.browser()) {
  const parent = newParent();
  const res = await submit(agent, '/login?tab=signup', '/signup', { ...parent, confirmPassword: parent.password });
  expect(res.status).toBe(303);
  return { agent, parent };
}

describe('/login', () => {
  it('offers Sign In and Create Account tabs, the forgot-password dialog and a way back home', async () => {
    const res = await shop.browser().get('/login').expect(200);
    expect(res.text).toContain('>Sign In</a>');
    expect(res.text).toContain('>Create Account</a>');
    expect(res.text).toContain('<dialog id="forgot-dialog"');
    expect(res.text).toContain('href="/reset-password"');
    expect(res.text).toMatch(/<a href="\/" class="back-link">/);
    expect(res.text).toMatch(/id="panel-signup" role="tabpanel" aria-labelledby="tab-signup" hidden/);
    const signup = await shop.browser().get('/login?tab=signup').expect(200);
    expect(signup.text).toMatch(/id="panel-signin" role="tabpanel" aria-labelledby="tab-signin" hidden/);
  });

  it('creates an account with the form, greets the parent in the header and lands on the dashboard', async () => {
    const { agent, parent } = await signedUp();
    const dashboard = await agent.get('/dashboard').expect(200);
    expect(dashboard.text).toContain(`Hello, ${parent.firstName}!`);
    expect(dashboard.text).toContain('Account Created!');
    expect(dashboard.text).not.toContain('Parent Login');
  });

  it("shows 'Missing Information' for empty sign-in fields and 'Login Failed' for a wrong password", async () => {
    const agent = shop.browser();
    const empty = await submit(agent, '/login', '/login', { email: '', password: '' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Missing Information');
    expect(empty.text).toContain('Please fill in all fields');
    const wrong = await submit(agent, '/login', '/login', { email: 'x@example.com', password: 'nope-nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Login Failed');
    expect(wrong.text).toContain('Invalid email or password');
    expect(wrong.text).toContain('value="x@example.com"');
  });

  it("shows 'Signup Failed' with the rule that was broken", async () => {
    const res = await submit(shop.browser(), '/login?tab=signup', '/signup', {
      ...newParent(),
      password: 'abcdef',
      confirmPassword: 'abcdeg',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Signup Failed');
    expect(res.text).toContain('Passwords do not match');
  });

  it('signs in with the form and goes to the dashboard with a welcome toast', async () => {
    const { parent } = await signedUp();
    const agent = shop.browser();
    const res = await submit(agent, '/login', '/login', { email: parent.email, password: parent.password });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard');
    expect((await agent.get('/dashboard')).text).toContain('Welcome back!');
  });

  it('goes to /failedlogin after the fifth wrong password', async () => {
    const { parent } = await signedUp();
    const agent = shop.browser();
    let res: supertest.Response | undefined;
    for (let i = 0; i < 5; i++) res = await submit(agent, '/login', '/login', { email: parent.email, password: 'wrong-again' });
    expect(res!.status).toBe(303);
    expect(res!.headers.location).toBe('/failedlogin');
  });

  it('brings a parent who creates an account on the way to the checkout back to the checkout', async () => {
    const agent = shop.browser();
    const page = await agent.get('/login?next=%2Fcheckout').expect(200);
    // Both tabs keep the way back, so a parent who switches tabs without JavaScript keeps it too.
    expect(page.text).toContain('href="/login?next=%2Fcheckout" aria-controls="panel-signin"');
    expect(page.text).toContain('href="/login?tab=signup&amp;next=%2Fcheckout" aria-controls="panel-signup"');
    const signupForm = page.text.slice(page.text.indexOf('id="signup-form"'));
    expect(signupForm.slice(0, signupForm.indexOf('</form>'))).toContain('<input type="hidden" name="next" value="/checkout">');

    // Refused first, the form comes back still carrying the way back.
    const parent = newParent();
    const refused = await submit(agent, '/login?tab=signup&next=%2Fcheckout', '/signup', { ...parent, firstName: '', next: '/checkout' });
    expect(refused.status).toBe(400);
    expect(refused.text.slice(refused.text.indexOf('id="signup-form"'))).toContain('name="next" value="/checkout"');

    const created = await submit(agent, '/login?tab=signup&next=%2Fcheckout', '/signup', { ...parent, next: '/checkout' });
    expect([created.status, created.headers.location]).toEqual([303, '/checkout']);
  });

  it('sends a new account to its dashboard when the way back leads off the shop', async () => {
    const parent = newParent();
    const res = await submit(shop.browser(), '/login?tab=signup', '/signup', { ...parent, next: '//elsewhere.example/checkout' });
    expect([res.status, res.headers.location]).toEqual([303, '/dashboard']);
  });
});

describe('/failedlogin', () => {
  it('shows the Account Security Alert exactly as the spec words it', async () => {
    const res = await shop.browser().get('/failedlogin').expect(200);
    for (const text of [
      'Account Security Alert',
      'Your account has been temporarily secured',
      'You have exceeded the maximum number of login attempts. For your security, your password has been reset and a new temporary password has been sent to your registered email address.',
      'Please check your email for the new password',
      'Return to Home',
      'If you continue to experience issues, please contact our support team.',
    ]) {
      expect(res.text).toContain(text);
    }
  });
});

describe('/dashboard', () => {
  it("sends visitors to /login with 'Access Denied' at the top of the sign-in form, not in a toast, once", async () => {
    const agent = shop.browser();
    const res = await agent.get('/dashboard').expect(303);
    // A visitor without a session gets none for it: the redirect says it.
    expect(res.headers.location).toBe('/login?denied=1');
    expect(res.headers['set-cookie']).toBeUndefined();
    const login = await agent.get(res.headers.location!).expect(200);
    const form = /<form method="post" action="\/login" id="signin-form"[^>]*>([\s\S]*?)<\/form>/.exec(login.text)?.[1] ?? '';
    // The refusal's summary, first in the form, taking the focus on arrival.
    expect(form.trimStart()).toMatch(/^<div class="form-problems" id="signin-problems" role="alert" tabindex="-1" autofocus/);
    expect(form).toMatch(/<h2 class="form-problems-title" id="signin-problems-title">Access Denied<\/h2>/);
    expect(form).toMatch(/<li>Please log in to access your dashboard\.<\/li>/);
    expect(login.text).not.toContain('class="toast toast-');
    expect(login.text).not.toContain('toast-error');
    // Nothing was typed wrong: no field is marked.
    expect(form).not.toContain('aria-invalid');
    expect(login.text).toMatch(/id="panel-signin" role="tabpanel" aria-labelledby="tab-signin">/);
    const again = await agent.get('/login').expect(200);
    expect(again.text).not.toContain('Access Denied');
  });

  it("keeps 'Access Denied' for the sign-in page of a visitor with a session: another page visited first leaves it there", async () => {
    const agent = shop.browser();
    await startSession(agent);
    expect((await agent.get('/dashboard?tab=orders').expect(303)).headers.location).toBe('/login');
    const cart = await agent.get('/cart').expect(200);
    expect(cart.text).not.toContain('Access Denied');
    expect((await agent.get('/login').expect(200)).text).toContain('Access Denied');
  });

  it("has Profile, Orders and Settings tabs and a 'Browse Books' button when there are no orders", async () => {
    const { agent } = await signedUp();
    const res = await agent.get('/dashboard?tab=orders').expect(200);
    for (const tab of ['Profile', 'Orders', 'Settings']) expect(res.text).toContain(`>${tab}</a>`);
    expect(res.text).toMatch(/href="\/books" role="button">Browse Books</);
    expect(res.text).toMatch(/id="panel-profile" role="tabpanel" aria-labelledby="tab-profile" hidden/);
  });

  it('shows a long email so that it wraps after the @ and before a dot, not mid-word', async () => {
    const agent = shop.browser();
    const stamp = Date.now();
    const parent = newParent({ email: `grandmother.of.three.${stamp}@example.co.uk` });
    expect((await submit(agent, '/login?tab=signup', '/signup', { ...parent, confirmPassword: parent.password })).status).toBe(303);
    const res = await agent.get('/dashboard').expect(200);
    const shown = `<span class="email">grandmother<wbr>.of<wbr>.three<wbr>.${stamp}@<wbr>example<wbr>.co<wbr>.uk</span>`;
    // In the greeting's line and in the profile's facts.
    expect(res.text.split(shown)).toHaveLength(3);
    expect(res.text).toContain(`<dt>Email</dt><dd>${shown}</dd>`);
  });

  it('edits the profile in edit mode; the email stays read-only', async () => {
    const { agent } = await signedUp();
    const edit = await agent.get('/dashboard?tab=profile&edit=1').expect(200);
    expect(edit.text).toMatch(/type="email" value="[^"]+" readonly/);
    const empty = await submit(agent, '/dashboard?tab=profile&edit=1', '/dashboard/profile', { firstName: '', lastName: 'B' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('First name is required.');
    const ok = await submit(agent, '/dashboard?tab=profile&edit=1', '/dashboard/profile', { firstName: 'Kofi', lastName: 'Boateng' });
    expect(ok.status).toBe(303);
    const after = await agent.get('/dashboard');
    expect(after.text).toContain('Hello, Kofi!');
    expect(after.text).toContain('Profile Updated');
  });

  it('changes the password from Settings', async () => {
    const { agent, parent } = await signedUp();
    const bad = await submit(agent, '/dashboard?tab=settings', '/dashboard/password', {
      currentPassword: parent.password,
      newPassword: 'abcdefg',
      confirmPassword: 'abcdefh',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('New passwords do not match.');
    expect(bad.text).toContain('Password Change Failed');
    const ok = await submit(agent, '/dashboard?tab=settings', '/dashboard/password', {
      currentPassword: parent.password,
      newPassword: 'abcdefg',
      confirmPassword: 'abcdefg',
    });
    expect(ok.status).toBe(303);
    expect((await agent.get('/dashboard?tab=settings')).text).toContain('Password Changed');
  });

  it('lists orders with their status colour and a breakdown that opens without another request', async () => {
    const { agent, parent } = await signedUp();
    const user = await shop.db('users').where({ email: parent.email }).first();
    const [orderId] = await shop.db('orders').insert({
      userId: user.id,
      status: 'shipped',
      subtotal: '29.99',
      shipping: '4.99',
      handling: '2.50',
      tax: '1.95',
      totalAmount: '39.43',
      shippingAddress: '9 Oak Ave',
      city: 'Austin',
      zipCode: '78701',
    });
    await shop.db('orderItems').insert({ orderId: Number(orderId), bookId: 8, title: 'Bramble', quantity: 1, price: '29.99' });
    const res = await agent.get('/dashboard?tab=orders').expect(200);
    expect(res.text).toContain(`Order #${Number(orderId)}`);
    expect(res.text).toContain('<span class="status status-blue">Shipped</span>');
    expect(res.text).toMatch(
      /<details class="breakdown">[\s\S]*Subtotal<\/dt><dd>\$29\.99[\s\S]*Shipping<\/dt><dd>\$4\.99[\s\S]*Handling<\/dt><dd>\$2\.50[\s\S]*Tax<\/dt><dd>\$1\.95[\s\S]*Total<\/dt><dd><strong>\$39\.43/,
    );
  });

  it('logs out back to the home page', async () => {
    const { agent } = await signedUp();
    const res = await submit(agent, '/dashboard', '/logout', {});
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/?loggedout=1');
    // The checkout's typed fields, kept in the tab, go with the session.
    expect(res.headers['clear-site-data']).toBe('"storage"');
    const home = await agent.get('/?loggedout=1');
    expect(home.text).toContain('Logged Out');
    expect(home.text).toContain('Parent Login');
    await agent.get('/dashboard').expect(303);
  });
});

/** The refusal summary's heading, lead and linked problems (src/web/form-problems.ts). */
function summaryOf(html: string) {
  const block = /<div class="form-problems" id="([\w-]+)-problems"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  return {
    form: block?.[1],
    focused: Boolean(block && /<div class="form-problems"[^>]*autofocus/.test(html)),
    title: /class="form-problems-title"[^>]*>([^<]+)</.exec(block?.[2] ?? '')?.[1],
    lead: /<p>([^<]+)<\/p>/.exec(block?.[2] ?? '')?.[1] ?? null,
    items: [...(block?.[2] ?? '').matchAll(/<li>(?:<a href="#([\w-]+)">)?([^<]+)/g)].map((m) => [m[1] ?? null, m[2]]),
  };
}

describe('refused account forms', () => {
  it('the forgot-password form sent empty from the sign-in page (no script) says so beside the field on the reset page', async () => {
    const res = await submit(shop.browser(), '/login', '/reset-password', { email: '' });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text)).toEqual({
      form: 'reset',
      focused: true,
      title: 'Reset Failed',
      lead: null,
      items: [['reset-email', 'Please enter your email address']],
    });
    expect(res.text).toMatch(/<input id="reset-email"[^>]*aria-invalid="true"/);
  });

  it('a sign-up missing everything lists each field at once, marks them, and keeps the names and email but no password', async () => {
    const res = await submit(shop.browser(), '/login?tab=signup', '/signup', {
      firstName: '',
      lastName: 'Mensah',
      email: '',
      password: '',
      confirmPassword: 'typed-anyway',
    });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text)).toEqual({
      form: 'signup',
      focused: true,
      title: 'Signup Failed',
      lead: 'Please fill in all required fields',
      items: [
        ['signup-first', 'Please enter your first name.'],
        ['signup-email', 'Please enter your email address.'],
        ['signup-password', 'Please choose a password.'],
      ],
    });
    expect(res.text).toMatch(/id="signup-first"[^>]*aria-invalid="true" aria-describedby="signup-first-error"/);
    expect(res.text).toMatch(/id="signup-email"[^>]*aria-invalid="true" aria-describedby="signup-email-status signup-email-error"/);
    expect(res.text).toMatch(/id="signup-password"[^>]*aria-invalid="true" aria-describedby="signup-password-hint signup-password-error"/);
    expect(res.text).toContain('value="Mensah"');
    expect(res.text).not.toContain('typed-anyway');
    expect(res.text).not.toContain('toast-error');
  });

  it('a sign-up with a bad email and a short password reports both', async () => {
    const res = await submit(shop.browser(), '/login?tab=signup', '/signup', {
      firstName: 'Ama',
      email: 'ama-at-home',
      password: '123',
      confirmPassword: '123',
    });
    expect(summaryOf(res.text).items).toEqual([
      ['signup-email', 'Please enter a valid email address'],
      ['signup-password', 'Password must be at least 6 characters long'],
    ]);
    expect(res.text).toContain('value="ama-at-home"');
  });

  it('a sign-up with a registered email names the email field', async () => {
    const { parent } = await signedUp();
    const res = await submit(shop.browser(), '/login?tab=signup', '/signup', { ...newParent(), email: parent.email });
    expect(res.status).toBe(409);
    expect(summaryOf(res.text).items).toEqual([
      ['signup-email', 'This email is already registered. Please use a different email or sign in.'],
    ]);
  });

  it('a refused sign-in keeps the email, says what happened, and never says which of the two was wrong', async () => {
    const agent = shop.browser();
    const empty = await submit(agent, '/login', '/login', { email: 'kofi@example.com', password: '' });
    expect(summaryOf(empty.text)).toMatchObject({
      form: 'signin',
      title: 'Missing Information',
      lead: 'Please fill in all fields',
      items: [['signin-password', 'Please enter your password.']],
    });
    const wrong = await submit(agent, '/login', '/login', { email: 'kofi@example.com', password: 'nope-nope' });
    expect(summaryOf(wrong.text)).toMatchObject({
      form: 'signin',
      title: 'Login Failed',
      items: [['signin-password', 'Invalid email or password']],
    });
    expect(wrong.text).toContain('value="kofi@example.com"');
    expect(wrong.text).not.toContain('nope-nope');
  });

  it('the profile form says what is wrong beside the first name, with no toast', async () => {
    const { agent } = await signedUp();
    const res = await submit(agent, '/dashboard?tab=profile&edit=1', '/dashboard/profile', { firstName: ' ', lastName: 'Boateng' });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text)).toMatchObject({
      form: 'profile',
      title: 'Update Failed',
      items: [['profile-first', 'First name is required.']],
    });
    expect(res.text).toMatch(/id="profile-first"[^>]*aria-invalid="true" aria-describedby="profile-first-error"/);
    expect(res.text).toContain('value="Boateng"');
    expect(res.text).not.toContain('toast-error');
  });

  it('the password form reports a wrong current password beside it, and every other problem at once', async () => {
    const { agent } = await signedUp();
    const all = await submit(agent, '/dashboard?tab=settings', '/dashboard/password', {
      currentPassword: '',
      newPassword: '123',
      confirmPassword: '124',
    });
    expect(summaryOf(all.text)).toMatchObject({
      form: 'password',
      title: 'Password Change Failed',
      items: [
        ['current-password', 'Please enter your current password.'],
        ['settings-new-password', 'Password must be at least 6 characters long'],
        ['settings-confirm-password', 'New passwords do not match.'],
      ],
    });
    expect(all.text).toMatch(/<details class="password-change" open>/);
    const wrong = await submit(agent, '/dashboard?tab=settings', '/dashboard/password', {
      currentPassword: 'not-my-password',
      newPassword: 'abcdefg',
      confirmPassword: 'abcdefg',
    });
    expect(wrong.status).toBe(400);
    expect(summaryOf(wrong.text).items).toEqual([['current-password', 'Your current password is not correct.']]);
    expect(wrong.text).toMatch(/id="current-password"[^>]*aria-invalid="true"/);
    expect(wrong.text).not.toContain('not-my-password');
  });
});

describe('the saved-address form refused', () => {
  it('lists every problem above it, beside each field, keeping what was typed', async () => {
    const { agent } = await signedUp();
    const res = await submit(agent, '/dashboard?tab=profile', '/dashboard/address', { address: '', city: 'Portland', zipCode: '972' });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text)).toMatchObject({
      form: 'address',
      title: 'Address Not Saved',
      items: [
        ['saved-address', 'Address is required'],
        ['saved-zipCode', 'ZIP code must be 5 digits'],
      ],
    });
    expect(res.text).toMatch(/id="saved-address"[^>]*aria-invalid="true" aria-describedby="saved-address-error"/);
    expect(res.text).toContain('value="Portland"');
    expect(res.text).toContain('value="972"');
    expect(res.text).not.toContain('toast-error');
  });
});
