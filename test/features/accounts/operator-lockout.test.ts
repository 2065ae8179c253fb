import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiBrowser } from '../../helpers/accounts.ts';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';
import { createOperator, operatorBrowser, type Operator } from '../../helpers/operator.ts';
import { LOCKOUT } from '../../../src/features/accounts/lockout.rules.ts';
import { User } from '../../../src/models/User.ts';

// An operator has a second factor: strangers guessing the password may slow the guessing
// down, but must never sign the operator out, replace the password, or mail a temporary one.
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ seed: false, env: { TRUST_PROXY: '1' } });
});
afterAll(() => shop.close());

let address = 0;
const freshAddress = () => `192.0.2.${++address}`;

async function signInFrom(ip: string, email: string, password: string) {
  const b = new ApiBrowser(shop.browser());
  await b.refreshToken();
  return b.agent.post('/api/auth/login').set('x-csrf-token', b.token).set('x-forwarded-for', ip).send({ email, password });
}

/** The password was right: a half sign-in, sent on to the second factor (401 with the step's address). */
function passwordAccepted(res: { status: number; body: { redirectUrl?: string } }): boolean {
  return res.status === 401 && res.body.redirectUrl === '/admin/two-factor';
}

async function accountOf(operator: Operator) {
  return User.query(shop.db).findById(operator.id).throwIfNotFound();
}

async function temporaryPasswordsTo(email: string) {
  await flushMail(shop);
  return shop.db('outbox').where({ toAddress: email, subject: 'We secured your account after failed sign-ins' });
}

describe("strangers guessing an operator's password", () => {
  it('from six addresses leave the password, the sessions and the inbox as they were', async () => {
    const { agent, operator } = await operatorBrowser(shop);
    const before = await accountOf(operator);
    const addresses = Array.from({ length: LOCKOUT.accountFailures + 1 }, freshAddress);
    for (const [i, ip] of addresses.entries()) {
      const res = await signInFrom(ip, operator.email, `wrong-${i}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid email or password' });
    }
    const after = await accountOf(operator);
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(Number(after.sessionVersion)).toBe(Number(before.sessionVersion));
    expect(after.temporaryPasswordSentAt).toBeNull();
    expect(await temporaryPasswordsTo(operator.email)).toHaveLength(0);
    expect(await shop.db('accountTokens').where({ userId: operator.id, purpose: 'temporary-password' })).toHaveLength(0);

    // Still signed in where they were, and able to sign in anywhere, one of the guessers' addresses included.
    expect((await agent.get('/admin')).status).toBe(200);
    expect(passwordAccepted(await signInFrom(freshAddress(), operator.email, operator.password))).toBe(true);
    expect(passwordAccepted(await signInFrom(addresses[0]!, operator.email, operator.password))).toBe(true);
  });

  it(`refuse one address with 429 after ${LOCKOUT.operatorFailures} failures, even the right password, while another address signs in`, async () => {
    const operator = await createOperator(shop.db);
    const guesser = freshAddress();
    for (let i = 0; i < LOCKOUT.operatorFailures; i++) expect((await signInFrom(guesser, operator.email, `wrong-${i}`)).status).toBe(401);
    expect((await signInFrom(guesser, operator.email, 'wrong-again')).status).toBe(429);
    expect((await signInFrom(guesser, operator.email, operator.password)).status).toBe(429);
    expect(passwordAccepted(await signInFrom(freshAddress(), operator.email, operator.password))).toBe(true);
    expect(await temporaryPasswordsTo(operator.email)).toHaveLength(0);
  });

  it('get no more than the allowance checked from one address in a parallel burst', async () => {
    const operator = await createOperator(shop.db);
    const guesser = freshAddress();
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => signInFrom(guesser, operator.email, `burst-${i}`)));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(LOCKOUT.operatorFailures);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15 - LOCKOUT.operatorFailures);
    expect((await accountOf(operator)).temporaryPasswordSentAt).toBeNull();
  });

  it('a right password from an address clears its failures there', async () => {
    const operator = await createOperator(shop.db);
    const ip = freshAddress();
    for (let i = 0; i < LOCKOUT.operatorFailures - 1; i++) expect((await signInFrom(ip, operator.email, `wrong-${i}`)).status).toBe(401);
    expect(passwordAccepted(await signInFrom(ip, operator.email, operator.password))).toBe(true);
    for (let i = 0; i < LOCKOUT.operatorFailures; i++) expect((await signInFrom(ip, operator.email, `again-${i}`)).status).toBe(401);
  });
});

describe('an operator not yet enrolled in the second factor', () => {
  it("is secured like a parent's account: the password alone guards it", async () => {
    const operator = await createOperator(shop.db, { enrolled: false });
    const answers = [];
    for (let i = 0; i < LOCKOUT.accountFailures; i++) answers.push(await signInFrom(freshAddress(), operator.email, `wrong-${i}`));
    expect(answers.at(-1)!.body).toEqual({ message: 'REDIRECT_TO_FAILED_LOGIN', redirectUrl: '/failedlogin' });
    expect(await temporaryPasswordsTo(operator.email)).toHaveLength(1);
  });
});
