import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { ApiBrowser } from '../../../helpers/accounts.ts';
import { placePaidOrder } from '../../../helpers/orders.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { STATUS_TIMEOUT_MS } from '../../../../src/features/admin/status/system-status.ts';
import { silentServer } from '../../../helpers/silent-server.ts';
import { deadPort, smtpUrl, startSmtpSink, type SmtpSink } from '../../../helpers/smtp-sink.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../helpers/stripe-stand-in.ts';

// The status page and GET /api/system-status ask each service for real when they load.

const TEST_CARDS = ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0025 0000 3155'];

describe('the embedded defaults (sandbox, database, mail to files)', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await buildTestShop();
  });
  afterAll(async () => {
    await shop.close();
  });

  it('shows three healthy cards, the checklist and the test cards', async () => {
    const { agent } = await operatorBrowser(shop);
    const books = Number(((await shop.db('books').count({ n: '*' }).first()) as { n: number }).n);
    const page = await agent.get('/admin').expect(200);
    expect(page.text).toContain('Payment system');
    expect(page.text).toMatch(/badge-in-stock">Active</);
    expect(page.text).toContain('>TEST<');
    expect(page.text).toMatch(/>Connected</);
    expect(page.text).toContain(`<dt>Books</dt><dd>${books}</dd>`);
    expect(page.text).toContain('<dt>Orders</dt><dd>0</dd>');
    expect(page.text).toContain('Emails are saved as files on the server, not sent.');
    expect(page.text).toContain('Before you take real payments');
    // Checked from the real configuration: an enrolled operator exists, the rest is unset.
    expect(page.text).toMatch(/class="done"><span aria-hidden="true">✓<\/span> <span>An operator signs in with two-step sign-in/);
    expect(page.text).toMatch(/class="todo"><span aria-hidden="true">○<\/span> <span>Emails are not sent yet/);
    for (const card of TEST_CARDS) expect(page.text).toContain(card);
  });

  it('answers the API with the spec fields, exactly', async () => {
    const { agent } = await operatorBrowser(shop);
    const res = await agent.get('/api/system-status').expect(200);
    const books = Number(((await shop.db('books').count({ n: '*' }).first()) as { n: number }).n);
    expect(res.body).toEqual({
      stripe: { configured: false, isLive: false, error: null },
      database: { bookCount: books, orderCount: 0 },
      email: { configured: false },
    });
  });

  it('shows a failing database query as an error on the card, not a 500', async () => {
    const { agent } = await operatorBrowser(shop);
    await shop.db.schema.renameTable('books', 'books_away');
    try {
      const page = await agent.get('/admin').expect(200);
      expect(page.text).toMatch(/badge-out">Error</);
      expect(page.text).toMatch(/class="status-error">[^<]*books/);
      // The operator reads what it means first; the database's own words are folded beneath, for the host.
      expect(page.text).toMatch(
        /The shop cannot read its books and orders right now, so parents may see an error\. Tell whoever hosts the shop, with the details below\.<\/p>\s*<details class="status-detail">\s*<summary>Details for your host<\/summary>\s*<p class="status-error">/,
      );
      const api = await agent.get('/api/system-status').expect(200);
      expect(api.body.database).toEqual({ bookCount: null, orderCount: null });
    } finally {
      await shop.db.schema.renameTable('books_away', 'books');
    }
  });

  it('counts the paid orders waiting to be packed and the unread messages', async () => {
    const { agent } = await operatorBrowser(shop);
    await placePaidOrder(shop, { quantity: 1 });
    const contact = await new ApiBrowser(shop.browser()).send('post', '/api/contact', {
      firstName: 'Amara',
      lastName: 'Osei',
      email: 'amara@example.com',
      currentMember: 'no',
      subject: 'Hello',
      description: 'A question about an order.',
    });
    expect(contact.status).toBeLessThan(300);

    const page = await agent.get('/admin').expect(200);
    expect(page.text).toContain('<strong>1</strong> order to pack');
    expect(page.text).toContain('<strong>1</strong> unread message');

    await shop.db('orders').update({ shippedAt: new Date() });
    await shop.db('contact_messages').update({ readAt: new Date() });
    const later = await agent.get('/admin').expect(200);
    expect(later.text).toContain('<strong>0</strong> orders to pack');
    expect(later.text).toContain('<strong>0</strong> unread messages');
  });
});

describe('Stripe mode', () => {
  let stripe: StripeStandIn;
  let shop: TestShop;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    shop = await buildTestShop({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_PUBLISHABLE_KEY: 'pk_test_standin', STRIPE_API_URL: stripe.url },
    });
  });
  afterAll(async () => {
    await shop.close();
    await stripe.close();
  });

  it('asks Stripe and shows Active and TEST for test keys', async () => {
    const { agent } = await operatorBrowser(shop);
    const asked = stripe.requests.length;
    const page = await agent.get('/admin').expect(200);
    expect(stripe.requests.slice(asked).some((r) => r.path === '/v1/payment_intents' && r.method === 'GET')).toBe(true);
    expect(page.text).toMatch(/badge-in-stock">Active</);
    expect(page.text).toContain('>TEST<');
    const api = await agent.get('/api/system-status').expect(200);
    expect(api.body.stripe).toEqual({ configured: true, isLive: false, error: null });
  });

  it("shows Stripe's error text when the check fails", async () => {
    const { agent } = await operatorBrowser(shop);
    stripe.failNext({ status: 500, type: 'api_error', message: 'Stripe is having a bad day.' }, '/v1/payment_intents');
    const page = await agent.get('/admin').expect(200);
    expect(page.text).toMatch(/badge-out">Error</);
    expect(page.text).toContain('Stripe is having a bad day.');
    expect(page.text).toContain('The shop cannot reach the payment service, so parents cannot pay right now.');
    stripe.failNext(
      { status: 401, type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_***' },
      '/v1/payment_intents',
    );
    const api = await agent.get('/api/system-status').expect(200);
    expect(api.body.stripe).toEqual({ configured: true, isLive: false, error: 'Invalid API Key provided: sk_test_***' });
  });
});

describe('SMTP', () => {
  let shop: TestShop | undefined;
  let sink: SmtpSink | undefined;
  afterEach(async () => {
    await shop?.close();
    await sink?.close();
    shop = sink = undefined;
  });

  it('says Configured when the SMTP server answers', async () => {
    sink = await startSmtpSink();
    shop = await buildTestShop({ env: { SMTP_URL: sink.url } });
    const { agent } = await operatorBrowser(shop);
    const page = await agent.get('/admin').expect(200);
    expect(page.text).toMatch(/badge-in-stock">Configured</);
    expect((await agent.get('/api/system-status').expect(200)).body.email).toEqual({ configured: true });
  });

  it('shows the connection error when nothing listens at SMTP_URL', async () => {
    shop = await buildTestShop({ env: { SMTP_URL: smtpUrl(await deadPort()) } });
    const { agent } = await operatorBrowser(shop);
    const page = await agent.get('/admin').expect(200);
    expect(page.text).toMatch(/<h2>Email system<\/h2>\s*<p><span class="badge badge-out">Error</);
    expect(page.text).toMatch(/class="status-error">[^<]*ECONNREFUSED/);
    expect(page.text).toContain('The shop cannot reach the mail server: emails wait, and go out once it answers.');
  });

  it('cuts off an SMTP server that never answers: the page still comes, with the timeout as the error', async () => {
    const hung = await silentServer();
    try {
      shop = await buildTestShop({ env: { SMTP_URL: smtpUrl(hung.port) } });
      const { agent } = await operatorBrowser(shop);
      const page = await agent.get('/admin').expect(200);
      expect(page.text).toContain(`No answer within ${STATUS_TIMEOUT_MS / 1000} seconds.`);
      expect(page.text).toMatch(/badge-in-stock">Connected</);
    } finally {
      await hung.close();
    }
  });
});
