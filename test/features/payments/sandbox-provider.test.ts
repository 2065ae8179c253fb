import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { connectDb, migrateLatest, type Db } from '../../../src/db.ts';
import { createPaymentProvider, isSandbox } from '../../../src/features/payments/index.ts';
import { PaymentError, WebhookVerificationError, type PaymentIntent } from '../../../src/features/payments/provider.ts';
import {
  SANDBOX_MESSAGES,
  SANDBOX_TEST_CARDS,
  cardProblem,
  createSandboxProvider,
  passesLuhn,
  type SandboxProvider,
} from '../../../src/features/payments/sandbox-provider.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

let database: TestDatabase;
let db: Db;
let sandbox: SandboxProvider;

const key = () => `key-${randomBytes(6).toString('hex')}`;
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
const GOOD = { expiry: `12/${nextYear}`, cvc: '123' };

async function newIntent(amountCents = 2599): Promise<PaymentIntent> {
  return sandbox.createPaymentIntent({ amountCents, customerId: null, metadata: { orderKey: 'o1' }, idempotencyKey: key() });
}

async function confirm(intent: PaymentIntent, cardNumber: string, details: Partial<typeof GOOD> = {}) {
  return sandbox.confirmCard({ id: intent.id, clientSecret: intent.clientSecret, cardNumber, ...GOOD, ...details });
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = connectDb({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
  await migrateLatest(db);
  sandbox = createSandboxProvider(db);
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('sandbox provider basics', () => {
  it('is test mode without a publishable key, and reachable', async () => {
    expect(sandbox.name).toBe('sandbox');
    expect(sandbox.isLive).toBe(false);
    expect(sandbox.publishableKey).toBeNull();
    expect(await sandbox.check()).toEqual({ ok: true });
  });

  it('is what createPaymentProvider picks without Stripe keys', () => {
    const config = loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'test-secret-test-secret-test-secret-0123' });
    const provider = createPaymentProvider({ config, db });
    expect(provider.name).toBe('sandbox');
    expect(isSandbox(provider)).toBe(true);
  });

  it('lists the three test cards for /admin', () => {
    expect(SANDBOX_TEST_CARDS.map((c) => c.number)).toEqual(['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0025 0000 3155']);
    for (const card of SANDBOX_TEST_CARDS) expect(passesLuhn(card.number.replace(/ /g, ''))).toBe(true);
  });

  it('has no webhooks', () => {
    expect(() => sandbox.parseWebhook(Buffer.from('{}'), 't=1,v1=x')).toThrow(WebhookVerificationError);
  });

  it('creates customers idempotently', async () => {
    const k = key();
    const first = await sandbox.createCustomer({ email: 'maya@example.com', name: 'Maya', idempotencyKey: k });
    expect(first.id).toMatch(/^cus_sbx_[0-9a-f]+$/);
    expect(await sandbox.createCustomer({ email: 'maya@example.com', name: 'Maya', idempotencyKey: k })).toEqual(first);
    const rows = await db('sandbox_customers').where({ idempotencyKey: k });
    expect(rows).toHaveLength(1);
  });

  it('creates an intent in requires_payment_method with ids and a client secret', async () => {
    const customer = await sandbox.createCustomer({ email: 'leo@example.com', name: 'Leo', idempotencyKey: key() });
    const intent = await sandbox.createPaymentIntent({
      amountCents: 1999,
      customerId: customer.id,
      metadata: { orderKey: 'abc', checkoutId: '3' },
      idempotencyKey: key(),
    });
    expect(intent).toEqual({
      id: expect.stringMatching(/^pi_sbx_[0-9a-f]+$/),
      status: 'requires_payment_method',
      amountCents: 1999,
      currency: 'usd',
      customerId: customer.id,
      clientSecret: expect.stringMatching(new RegExp(`^${intent.id}_secret_[0-9a-f]+$`)),
      lastError: null,
      metadata: { orderKey: 'abc', checkoutId: '3' },
    });
    expect(await sandbox.retrievePaymentIntent(intent.id)).toEqual(intent);
  });

  it('the same idempotency key returns the same intent, also when the two calls race', async () => {
    const input = { amountCents: 1500, customerId: null, metadata: { orderKey: 'same' }, idempotencyKey: key() };
    const first = await sandbox.createPaymentIntent(input);
    expect(await sandbox.createPaymentIntent(input)).toEqual(first);

    const racing = { ...input, idempotencyKey: key() };
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => sandbox.createPaymentIntent(racing)));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await db('sandbox_payment_intents').where({ idempotencyKey: racing.idempotencyKey })).toHaveLength(1);
  });

  it('refuses a reused key with different parameters, and amounts Stripe would refuse', async () => {
    const input = { amountCents: 1500, customerId: null, metadata: {}, idempotencyKey: key() };
    await sandbox.createPaymentIntent(input);
    await expect(sandbox.createPaymentIntent({ ...input, amountCents: 1600 })).rejects.toThrow(/same parameters/);
    await expect(sandbox.createPaymentIntent({ ...input, amountCents: 49, idempotencyKey: key() })).rejects.toBeInstanceOf(PaymentError);
    await expect(sandbox.createPaymentIntent({ ...input, amountCents: 10.5, idempotencyKey: key() })).rejects.toThrow(
      /Invalid payment amount/,
    );
  });

  it('an unknown intent raises PaymentError', async () => {
    await expect(sandbox.retrievePaymentIntent('pi_sbx_nope')).rejects.toBeInstanceOf(PaymentError);
    await expect(sandbox.retrievePaymentIntent('pi_sbx_nope')).rejects.toMatchObject({ status: 404 });
  });
});

describe('sandbox card confirmation', () => {
  it('4242 4242 4242 4242 succeeds', async () => {
    const intent = await newIntent();
    const confirmed = await confirm(intent, '4242 4242 4242 4242');
    expect(confirmed).toMatchObject({ id: intent.id, status: 'succeeded', lastError: null });
    expect((await sandbox.retrievePaymentIntent(intent.id)).status).toBe('succeeded');
  });

  it('any other Luhn-valid number succeeds too', async () => {
    expect((await confirm(await newIntent(), '5555555555554444')).status).toBe('succeeded');
  });

  it('4000 0000 0000 0002 is declined and can be retried with another card', async () => {
    const intent = await newIntent();
    const declined = await confirm(intent, '4000 0000 0000 0002');
    expect(declined).toMatchObject({ status: 'requires_payment_method', lastError: 'Your card was declined.' });
    expect((await sandbox.retrievePaymentIntent(intent.id)).lastError).toBe('Your card was declined.');
    expect(await confirm(intent, '4242424242424242')).toMatchObject({ status: 'succeeded', lastError: null });
  });

  it('4000 0025 0000 3155 needs 3D Secure; passing it succeeds', async () => {
    const intent = await newIntent();
    expect(await confirm(intent, '4000 0025 0000 3155')).toMatchObject({ status: 'requires_action', lastError: null });
    const done = await sandbox.completeAuthentication({ id: intent.id, clientSecret: intent.clientSecret, succeed: true });
    expect(done).toMatchObject({ status: 'succeeded', lastError: null });
    // Finishing again (a double click) changes nothing.
    expect(await sandbox.completeAuthentication({ id: intent.id, clientSecret: intent.clientSecret, succeed: false })).toMatchObject({
      status: 'succeeded',
    });
  });

  it('failing 3D Secure sends the intent back for another card', async () => {
    const intent = await newIntent();
    await confirm(intent, '4000002500003155');
    const failed = await sandbox.completeAuthentication({ id: intent.id, clientSecret: intent.clientSecret, succeed: false });
    expect(failed).toMatchObject({ status: 'requires_payment_method', lastError: SANDBOX_MESSAGES.authenticationFailed });
    expect(failed.lastError).toBe(
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    );
    expect((await confirm(intent, '4242424242424242')).status).toBe('succeeded');
  });

  it('confirming while authentication is pending answers the pending step and charges nothing', async () => {
    const intent = await newIntent();
    await confirm(intent, '4000002500003155');
    expect(await confirm(intent, '4242424242424242')).toMatchObject({ status: 'requires_action', lastError: null });
    expect((await sandbox.retrievePaymentIntent(intent.id)).status).toBe('requires_action');
  });

  it('a canceled intent cannot be confirmed: a 409 with a message', async () => {
    const intent = await newIntent();
    await sandbox.cancelPaymentIntent(intent.id, 'cancel-before-confirm');
    const failure = confirm(intent, '4242424242424242');
    await expect(failure).rejects.toBeInstanceOf(PaymentError);
    await expect(failure).rejects.toMatchObject({ status: 409, message: 'This payment was canceled. Please start checkout again.' });
  });

  it.each([
    ['4242 4242 4242 4241', {}, 'Your card number is incorrect.'],
    ['4242-4242-4242-4242', {}, 'Your card number is incorrect.'],
    ['', {}, 'Your card number is incorrect.'],
    ['4242 4242 4242 4242', { expiry: '13/30' }, "Your card's expiration date is incorrect."],
    ['4242 4242 4242 4242', { expiry: '1230' }, "Your card's expiration date is incorrect."],
    ['4242 4242 4242 4242', { expiry: '01/20' }, 'Your card has expired.'],
    ['4242 4242 4242 4242', { cvc: '12' }, "Your card's security code is incorrect."],
    ['4242 4242 4242 4242', { cvc: '12a' }, "Your card's security code is incorrect."],
    ['4242 4242 4242 4242', { cvc: '12345' }, "Your card's security code is incorrect."],
  ])('%s %o: %s', async (number, details, message) => {
    const intent = await newIntent();
    const result = await confirm(intent, number, details);
    expect(result).toMatchObject({ status: 'requires_payment_method', lastError: message });
    expect((await sandbox.retrievePaymentIntent(intent.id)).status).toBe('requires_payment_method');
  });

  it('a 4-digit CVC and this month’s expiry are accepted', async () => {
    const now = new Date();
    const thisMonth = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String(now.getUTCFullYear() % 100).padStart(2, '0')}`;
    expect(cardProblem('4242424242424242', thisMonth, '1234', now)).toBeNull();
    expect(cardProblem('4242424242424242', '02/26', '123', new Date(Date.UTC(2026, 2, 1)))).toBe('Your card has expired.');
    expect(cardProblem('4242424242424242', '03/26', '123', new Date(Date.UTC(2026, 2, 31)))).toBeNull();
  });

  it('a wrong client secret cannot confirm or authenticate', async () => {
    const intent = await newIntent();
    const other = await newIntent();
    // Each attempt starts only when awaited: a rejection nobody waits for yet is an unhandled one.
    const attempts = [
      () => sandbox.confirmCard({ id: intent.id, clientSecret: other.clientSecret, cardNumber: '4242424242424242', ...GOOD }),
      () => sandbox.confirmCard({ id: intent.id, clientSecret: '', cardNumber: '4242424242424242', ...GOOD }),
      () => sandbox.confirmCard({ id: 'pi_sbx_missing', clientSecret: intent.clientSecret, cardNumber: '4242424242424242', ...GOOD }),
      () => sandbox.completeAuthentication({ id: intent.id, clientSecret: `${intent.clientSecret}x`, succeed: true }),
    ];
    for (const attempt of attempts) {
      const refused = attempt();
      await expect(refused).rejects.toBeInstanceOf(PaymentError);
      await expect(refused).rejects.toMatchObject({ status: 404, message: 'This payment could not be found.' });
    }
    expect((await sandbox.retrievePaymentIntent(intent.id)).status).toBe('requires_payment_method');
  });

  it('confirming a succeeded intent again returns it as is', async () => {
    const intent = await newIntent();
    const first = await confirm(intent, '4242424242424242');
    expect(await confirm(intent, '4000000000000002')).toEqual(first);
  });

  it('of concurrent confirmations exactly one moves the intent', async () => {
    const intent = await newIntent();
    // Count the status updates the database actually applied.
    let applied = 0;
    const onResponse = (response: unknown, query: { sql: string }) => {
      if (/^update/i.test(query.sql) && Number(response) > 0) applied += 1;
    };
    db.on('query-response', onResponse);
    try {
      const cards = ['4242424242424242', '4000002500003155', '4242424242424242', '4000002500003155', '5555555555554444'];
      const settled = await Promise.allSettled(cards.map((card) => confirm(intent, card)));
      const final = await sandbox.retrievePaymentIntent(intent.id);
      expect(['succeeded', 'requires_action']).toContain(final.status);
      // Every caller sees the one outcome that won, never a status that was overwritten. A
      // caller that arrives after a 3D Secure winner is told authentication is pending.
      for (const result of settled) {
        if (result.status === 'fulfilled') expect(result.value.status).toBe(final.status);
        else expect(result.reason).toBeInstanceOf(PaymentError);
      }
      expect(settled.some((r) => r.status === 'fulfilled')).toBe(true);
      expect(applied).toBe(1);
    } finally {
      db.off('query-response', onResponse);
    }
  });
});

describe('sandbox cancel and refund', () => {
  it('cancels an open intent, idempotently', async () => {
    const intent = await newIntent();
    await sandbox.cancelPaymentIntent(intent.id, key());
    expect((await sandbox.retrievePaymentIntent(intent.id)).status).toBe('canceled');
    await sandbox.cancelPaymentIntent(intent.id, key());
    expect((await sandbox.retrievePaymentIntent(intent.id)).status).toBe('canceled');
    await expect(confirm(intent, '4242424242424242')).rejects.toThrow(/canceled/);
  });

  it('cancels an intent waiting for 3D Secure', async () => {
    const intent = await newIntent();
    await confirm(intent, '4000002500003155');
    await sandbox.cancelPaymentIntent(intent.id, key());
    expect((await sandbox.retrievePaymentIntent(intent.id)).status).toBe('canceled');
  });

  it('does not cancel a succeeded intent', async () => {
    const intent = await newIntent();
    await confirm(intent, '4242424242424242');
    await expect(sandbox.cancelPaymentIntent(intent.id, key())).rejects.toBeInstanceOf(PaymentError);
    expect((await sandbox.retrievePaymentIntent(intent.id)).status).toBe('succeeded');
    await expect(sandbox.cancelPaymentIntent('pi_sbx_missing', key())).rejects.toBeInstanceOf(PaymentError);
  });

  it('refunds only a succeeded intent', async () => {
    const open = await newIntent();
    await expect(sandbox.refund({ paymentIntentId: open.id, idempotencyKey: key() })).rejects.toBeInstanceOf(PaymentError);
    await expect(sandbox.refund({ paymentIntentId: 'pi_sbx_missing', idempotencyKey: key() })).rejects.toBeInstanceOf(PaymentError);
  });

  it('refunds idempotently, recording one row, and refuses a second refund', async () => {
    const intent = await newIntent(3250);
    await confirm(intent, '4242424242424242');
    const k = key();
    const refund = await sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: k });
    expect(refund.id).toMatch(/^re_sbx_[0-9a-f]+$/);
    expect(await sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: k })).toEqual(refund);
    const rows = await db('sandbox_refunds').where({ paymentIntentId: intent.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: refund.id, amountCents: 3250, idempotencyKey: k });
    await expect(sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: key() })).rejects.toThrow(/already been refunded/);
  });

  it('refunds part of a payment, never more than is left, like Stripe', async () => {
    const intent = await newIntent(3000);
    await confirm(intent, '4242424242424242');
    const k = key();
    const first = await sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: k, amountCents: 1000 });
    expect(await sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: k, amountCents: 1000 })).toEqual(first);
    await expect(sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: key(), amountCents: 2001 })).rejects.toThrow(
      'Refund amount ($20.01) is greater than unrefunded amount on charge ($20.00)',
    );
    await expect(sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: key(), amountCents: 0 })).rejects.toBeInstanceOf(
      PaymentError,
    );
    // Without an amount: whatever is left.
    await sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: key() });
    const rows = await db('sandbox_refunds').where({ paymentIntentId: intent.id });
    expect(rows.map((r) => Number(r.amountCents)).sort((a, b) => a - b)).toEqual([1000, 2000]);
    await expect(sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: key(), amountCents: 1 })).rejects.toThrow(
      /already been refunded/,
    );
  });

  it('concurrent refunds make one refund', async () => {
    const intent = await newIntent();
    await confirm(intent, '4242424242424242');
    const k = key();
    const sameKey = await Promise.all([1, 2, 3].map(() => sandbox.refund({ paymentIntentId: intent.id, idempotencyKey: k })));
    expect(new Set(sameKey.map((r) => r.id)).size).toBe(1);

    const other = await newIntent();
    await confirm(other, '4242424242424242');
    const settled = await Promise.allSettled([1, 2, 3].map(() => sandbox.refund({ paymentIntentId: other.id, idempotencyKey: key() })));
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    expect(await db('sandbox_refunds').where({ paymentIntentId: other.id })).toHaveLength(1);
  });
});
