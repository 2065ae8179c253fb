// Emails at the 254-character limit: measured after lowercasing (some letters grow), refused
// with a 400 and a clear message wherever an email enters, and a long but valid email is
// counted by the sign-in limits like any other (on the SQL throttle table too, whose keys
// have a length limit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiBrowser, newParent } from '../../helpers/accounts.ts';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  // Counters in the database, even on CI's Redis run: that is where keys have a length limit.
  const redisUrl = process.env.REDIS_URL;
  delete process.env.REDIS_URL;
  try {
    shop = await buildTestShop({ env: { TRUST_PROXY: 'true' } });
  } finally {
    if (redisUrl !== undefined) process.env.REDIS_URL = redisUrl;
  }
});
afterAll(() => shop.close());

// 246 characters as typed, 486 once lowercased: 'İ' lowercases to 'i' and a combining dot.
const GROWS = `${'İ'.repeat(240)}@x.com`;
const TOO_LONG = `${'a'.repeat(250)}@x.com`;
const MESSAGE = 'Email addresses can be at most 254 characters long';
// 230 characters: valid, and longer than the throttle table's key column allows with a prefix.
const LONG_VALID = `${'long.name.'.repeat(22)}${'b'.repeat(5)}@example.com`;

let address = 0;
function browser() {
  const b = new ApiBrowser(shop.browser());
  const ip = `10.9.0.${++address}`;
  const send = b.send.bind(b);
  b.send = (method, path, body) => {
    const original = b.agent[method].bind(b.agent);
    b.agent[method] = (url: string) => original(url).set('x-forwarded-for', ip);
    return send(method, path, body).finally(() => {
      b.agent[method] = original;
    });
  };
  return b;
}

async function users(): Promise<number> {
  const row = (await shop.db('users').count({ n: '*' }).first()) as { n: number | string };
  return Number(row.n);
}

describe('an email over 254 characters', () => {
  it.each([
    ['grows past the limit when lowercased', GROWS],
    ['is too long as typed', TOO_LONG],
  ])('that %s is refused with a 400 by every JSON door, and nothing is stored', async (_what, email) => {
    const before = await users();
    const b = browser();
    for (const [path, body] of [
      ['/api/auth/signup', { ...newParent(), email }],
      ['/api/auth/login', { email, password: 'story-time-42' }],
      ['/api/auth/reset-password', { email }],
      ['/api/check-email', { email }],
    ] as const) {
      const res = await b.send('post', path, body);
      expect({ path, status: res.status, message: res.body.message }).toEqual({ path, status: 400, message: MESSAGE });
    }
    expect(await users()).toBe(before);
  });

  it('is refused by the sign-up, sign-in and reset forms with the same message', async () => {
    const agent = shop.browser();
    let token = formToken((await agent.get('/login')).text);
    for (const [path, form] of [
      ['/signup', { ...newParent(), email: GROWS }],
      ['/login', { email: GROWS, password: 'story-time-42' }],
      ['/reset-password', { email: GROWS }],
    ] as const) {
      const res = await agent
        .post(path)
        .type('form')
        .send({ ...form, _csrf: token });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.text).toContain(MESSAGE);
      // The first post made the session: the form shown again carries its token.
      token = formToken(res.text);
    }
  });
});

describe('a long but valid email', () => {
  it('signs up, and wrong passwords are counted until the account is secured', async () => {
    expect(LONG_VALID.length).toBeGreaterThan(200);
    const parent = newParent({ email: LONG_VALID });
    expect((await browser().signUp(parent)).status).toBe(201);
    const b = browser();
    for (let attempt = 1; attempt <= 4; attempt++) {
      const res = await b.signIn(LONG_VALID, `wrong-${attempt}`);
      expect({ attempt, status: res.status }).toEqual({ attempt, status: 401 });
    }
    expect((await b.signIn(LONG_VALID, 'wrong-5')).body).toEqual({ message: 'REDIRECT_TO_FAILED_LOGIN', redirectUrl: '/failedlogin' });
    // Secured: the old password no longer signs in.
    expect((await browser().signIn(LONG_VALID, parent.password)).status).toBe(401);
  });
});
