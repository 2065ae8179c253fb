import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiBrowser, newParent } from '../../helpers/accounts.ts';
import { TEST_LIMITS, buildTestShop, type TestShop } from '../../helpers/app.ts';
import { listen, openSession, postJson, type Listening } from '../../helpers/burst.ts';

// The account's run of failures is counted in a window (15 minutes in the shop; two seconds
// here), but a temporary password is mailed at most once per 30 minutes whatever the window:
// a second lockout soon after the first must not mail another (which would kill the first).
const WINDOW_MS = 2000;

let shop: TestShop;
let server: Listening;
beforeAll(async () => {
  shop = await buildTestShop({
    seed: false,
    env: { TRUST_PROXY: '1' },
    limits: { ...TEST_LIMITS, 'login-account': { points: 5, windowMs: WINDOW_MS } },
  });
  server = await listen(shop.app);
});
afterAll(async () => {
  await server.close();
  await shop.close();
});

let address = 0;
const freshAddress = () => `100.96.${address >> 8}.${++address & 255}`;

/** A parent who just signed up, and a wrong-password sign-in for them, each from a new client address. */
async function parentGuessedAtFromManyAddresses() {
  const parent = newParent();
  expect((await new ApiBrowser(shop.browser()).signUp(parent)).status).toBe(201);
  const session = await openSession(server.url);
  const guess = (i: number) =>
    postJson(server.url, '/api/auth/login', { email: parent.email, password: `wrong-${i}` }, session, {
      'x-forwarded-for': freshAddress(),
    });
  return { parent, guess };
}

describe('a second lockout within 30 minutes', () => {
  it('mails no second temporary password, even when its failures arrive all at once', async () => {
    const { parent, guess } = await parentGuessedAtFromManyAddresses();

    // Five failures at once, well inside one window however slow the hashing is.
    await Promise.all(Array.from({ length: 5 }, (_, i) => guess(i)));
    const first = await shop.db('accountTokens').where({ purpose: 'temporary-password' });
    expect(first).toHaveLength(1);

    // Let the window pass, then a second round of failures, all in parallel.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 200));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(100 + i)));
    expect(answers.filter((a) => a.status >= 500)).toHaveLength(0);

    const mails = await shop.db('outbox').where({ toAddress: parent.email, subject: 'We secured your account after failed sign-ins' });
    expect(mails).toHaveLength(1);
    // The first temporary password is still the live one.
    expect(await shop.db('accountTokens').where({ purpose: 'temporary-password' })).toEqual(first);
  });
});

describe("the recipient's cap on temporary passwords", () => {
  it('holds in the shared throttle store too: no second mail, and the first temporary password stays live', async () => {
    const { parent, guess } = await parentGuessedAtFromManyAddresses();
    await Promise.all(Array.from({ length: 5 }, (_, i) => guess(i)));
    const temporaryPasswords = () =>
      shop
        .db('accountTokens')
        .where({ purpose: 'temporary-password' })
        .whereIn('userId', shop.db('users').select('id').where({ email: parent.email }));
    const first = await temporaryPasswords();
    expect(first).toHaveLength(1);

    // As if the account's own record of the mail were gone: only the shared counter stands.
    await shop.db('users').where({ email: parent.email }).update({ temporaryPasswordSentAt: null });
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 200));
    await Promise.all(Array.from({ length: 5 }, (_, i) => guess(100 + i)));

    expect(
      await shop.db('outbox').where({ toAddress: parent.email, subject: 'We secured your account after failed sign-ins' }),
    ).toHaveLength(1);
    expect(await temporaryPasswords()).toEqual(first);
  });
});

describe('the lockout email', () => {
  it('says that sign-ins failed, how often and when, and what to do if it was not the parent', async () => {
    const { parent, guess } = await parentGuessedAtFromManyAddresses();
    const before = Date.now();
    await Promise.all(Array.from({ length: 5 }, (_, i) => guess(i)));
    const [mail] = await shop.db('outbox').where({ toAddress: parent.email, subject: 'We secured your account after failed sign-ins' });
    expect(mail).toBeDefined();
    for (const body of [mail.textBody as string, mail.htmlBody as string]) {
      expect(body).toMatch(/a wrong password (<strong>)?5 times in a row/);
      // When: the day and minute of the lockout, in UTC, as the parent reads dates.
      const day = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(before);
      expect(body).toContain(day);
      expect(body).toMatch(/at \d{1,2}:\d\d [AP]M UTC/);
      expect(body).toContain('Was it not you?');
      expect(body).toContain('/reset-password');
      expect(body).not.toContain('did not ask for a new password');
    }
  });
});
