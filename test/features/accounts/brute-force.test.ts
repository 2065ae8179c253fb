import argon2 from 'argon2';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { newParent, ApiBrowser, type Parent } from '../../helpers/accounts.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { listen, openSession, postJson, type Answer, type Listening } from '../../helpers/burst.ts';

// Every password check that reaches argon2 is counted (a wrong password, and the dummy check
// an unknown email costs), so the test sees how many guesses the limits let through,
// whatever order the parallel requests arrive in.
const argon2Verify = vi.spyOn(argon2, 'verify');
const verified = {
  get count() {
    return argon2Verify.mock.calls.length;
  },
};

const ACCOUNT_LIMIT = 5;
const ADDRESS_LIMIT = 20;
const BURST = 200;

let shop: TestShop;
let server: Listening;
beforeAll(async () => {
  shop = await buildTestShop({ seed: false, env: { TRUST_PROXY: '1' } });
  server = await listen(shop.app);
});
afterAll(async () => {
  argon2Verify.mockRestore();
  await server.close();
  await shop.close();
});
beforeEach(() => {
  argon2Verify.mockClear();
});

let nextAddress = 0;
const freshAddress = () => `10.${(++nextAddress >> 8) & 255}.${nextAddress & 255}.7`;

async function registered(): Promise<Parent> {
  const parent = newParent();
  const b = new ApiBrowser(shop.browser());
  expect((await b.signUp(parent)).status).toBe(201);
  return parent;
}

async function temporaryPasswordMails(email: string): Promise<number> {
  const rows = await shop.db('outbox').where({ toAddress: email, subject: 'We secured your account after failed sign-ins' });
  return rows.length;
}

async function waitUntil(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('a concurrent brute force', () => {
  it(`${BURST} parallel guesses at one account from as many addresses: at most ${ACCOUNT_LIMIT} checked, one mail, and the right password arriving late does not sign in`, async () => {
    const victim = await registered();
    argon2Verify.mockClear();
    const session = await openSession(server.url);
    const guess = (password: string) =>
      postJson(server.url, '/api/auth/login', { email: victim.email, password }, session, { 'x-forwarded-for': freshAddress() });

    const wrong: Promise<Answer>[] = [];
    for (let i = 0; i < BURST - 1; i++) wrong.push(guess(`wrong-guess-${i}`));
    // The right password joins the burst once the account's allowance is being spent.
    await waitUntil(() => verified.count >= ACCOUNT_LIMIT);
    const right = guess(victim.password);
    const answers = await Promise.all([...wrong, right]);

    expect(verified.count).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    expect((await right).status).not.toBe(200);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(0);
    expect(answers.filter((a) => a.status >= 500)).toHaveLength(0);
    expect(answers.some((a) => a.body.redirectUrl === '/failedlogin')).toBe(true);
    expect(await temporaryPasswordMails(victim.email)).toBe(1);
  });

  it(`${BURST} parallel guesses from one address across accounts: at most ${ADDRESS_LIMIT} checked, the rest refused with 429`, async () => {
    const victims = await Promise.all(Array.from({ length: 10 }, () => registered()));
    argon2Verify.mockClear();
    const session = await openSession(server.url);
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        postJson(server.url, '/api/auth/login', { email: victims[i % victims.length]!.email, password: `wrong-${i}` }, session, {
          'x-forwarded-for': address,
        }),
      ),
    );
    expect(verified.count).toBeLessThanOrEqual(ADDRESS_LIMIT);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(BURST - ADDRESS_LIMIT);
    expect(answers.filter((a) => a.status === 200 || a.status >= 500)).toHaveLength(0);
  });

  it('many parallel lockouts of one account mail one temporary password', async () => {
    const victim = await registered();
    const session = await openSession(server.url);
    // Rounds of five failures each, all at once, from different addresses.
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        postJson(server.url, '/api/auth/login', { email: victim.email, password: `nope-${i}` }, session, {
          'x-forwarded-for': freshAddress(),
        }),
      ),
    );
    expect(await temporaryPasswordMails(victim.email)).toBe(1);
  });
});
