import { afterEach, describe, expect, it } from 'vitest';
import { ApiBrowser } from '../helpers/accounts.ts';
import { buildTestShop, type TestShop } from '../helpers/app.ts';
import { pino } from 'pino';
import { createApp } from '../../src/app.ts';
import { loadAssets } from '../../src/web/assets.ts';
import { insecureCookieWarning } from '../../src/web/session.ts';

const CHECK_EMAIL_LIMIT = 60;
const PROXY = '203.0.113.9';

let shop: TestShop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

let forged = 0;
const forgedAddress = () => `198.51.100.${++forged % 250}`;

/** Check-email calls whose X-Forwarded-For starts with a different made-up client each time. */
async function checksThroughProxy(trustProxy: string, calls: number): Promise<number[]> {
  shop = await buildTestShop({ seed: false, env: { TRUST_PROXY: trustProxy } });
  const b = new ApiBrowser(shop.browser());
  await b.refreshToken();
  const statuses: number[] = [];
  for (let i = 0; i < calls; i++) {
    const res = await b.agent
      .post('/api/check-email')
      .set('x-csrf-token', b.token)
      .set('x-forwarded-for', `${forgedAddress()}, ${PROXY}`)
      .send({ email: `someone${i}@example.com` });
    statuses.push(res.status);
  }
  return statuses;
}

describe('behind one proxy (TRUST_PROXY=1)', () => {
  it(`counts the address the proxy saw, so a forged left-most X-Forwarded-For cannot pass the limit of ${CHECK_EMAIL_LIMIT}`, async () => {
    const statuses = await checksThroughProxy('1', CHECK_EMAIL_LIMIT + 5);
    expect(statuses.slice(0, CHECK_EMAIL_LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(CHECK_EMAIL_LIMIT)).toEqual(Array(5).fill(429));
  });

  it('takes the old setting TRUST_PROXY=true as one proxy, never as "trust everything"', async () => {
    const statuses = await checksThroughProxy('true', CHECK_EMAIL_LIMIT + 5);
    expect(statuses.slice(CHECK_EMAIL_LIMIT)).toEqual(Array(5).fill(429));
  });

  it('refuses sign-in failures by the address the proxy saw, whatever the forged part says', async () => {
    shop = await buildTestShop({ seed: false, env: { TRUST_PROXY: '1' } });
    const b = new ApiBrowser(shop.browser());
    await b.refreshToken();
    // Twenty failures across unknown accounts from one real address behind forged ones.
    let last = 0;
    for (let i = 0; i < 21; i++) {
      const res = await b.agent
        .post('/api/auth/login')
        .set('x-csrf-token', b.token)
        .set('x-forwarded-for', `${forgedAddress()}, ${PROXY}`)
        .send({ email: `nobody${i}@example.com`, password: 'wrong' });
      last = res.status;
    }
    expect(last).toBe(429);
  });
});

describe('with no proxy (TRUST_PROXY=0, the default)', () => {
  it('ignores X-Forwarded-For entirely', async () => {
    shop = await buildTestShop({ seed: false });
    const b = new ApiBrowser(shop.browser());
    await b.refreshToken();
    const statuses: number[] = [];
    for (let i = 0; i < CHECK_EMAIL_LIMIT + 1; i++) {
      const res = await b.agent
        .post('/api/check-email')
        .set('x-csrf-token', b.token)
        .set('x-forwarded-for', forgedAddress())
        .send({ email: `a${i}@example.com` });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('the session cookie in production', () => {
  const production = {
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://shop.example',
    ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
    SEED_CATALOGUE: 'false',
  };
  // A first change makes the session, and so sends its cookie.
  const ADDRESS = { address: '1 Main Street', city: 'Springfield', zipCode: '62701' };
  const sessionCookie = (res: { headers: Record<string, unknown> }) =>
    ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('shop.sid='));

  it('is Secure when the trusted proxy says the request came over https', async () => {
    shop = await buildTestShop({ seed: false, env: { ...production, TRUST_PROXY: '1' } });
    const res = await shop.browser().post('/api/validate-address').set('x-forwarded-proto', 'https').send(ADDRESS).expect(200);
    expect(sessionCookie(res)).toMatch(/;\s*Secure/i);
  });

  it('cannot be Secure behind a TLS proxy with TRUST_PROXY=0, which start-up warns about', async () => {
    shop = await buildTestShop({ seed: false, env: { ...production, TRUST_PROXY: '0' } });
    const res = await shop.browser().post('/api/validate-address').set('x-forwarded-proto', 'https').send(ADDRESS).expect(200);
    expect(sessionCookie(res)).not.toMatch(/;\s*Secure/i);
    expect(insecureCookieWarning(shop.config)).toMatch(/TRUST_PROXY is 0 in production/);
    expect(insecureCookieWarning({ ...shop.config, TRUST_PROXY: 1 })).toBeUndefined();
    expect(insecureCookieWarning({ ...shop.config, isProduction: false })).toBeUndefined();

    // Building the app (start-up) logs it as a warning.
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    createApp({ config: shop.config, db: shop.db, sessions: shop.sessions, log, assets: loadAssets(), services: shop.services });
    expect(lines.map((l) => JSON.parse(l) as { level: number; msg: string })).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringContaining('TRUST_PROXY is 0 in production') }),
    );
  });
});
