import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiBrowser, newParent } from '../../helpers/accounts.ts';
import { buildTestShop, flushMail, type TestShop } from '../../helpers/app.ts';

// Each sign-up mails a welcome to an address nobody has verified: sign-ups are limited per
// client address, with the shop's real limits (not the tests' generous ones).
const PER_ADDRESS = 10;

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ seed: false, env: { TRUST_PROXY: '1' }, limits: {} });
});
afterAll(() => shop.close());

let address = 0;
const freshAddress = () => `192.0.2.${++address}`;

function from(ip: string, b = new ApiBrowser(shop.browser())) {
  return {
    b,
    signUp: async (parent = newParent()) => {
      if (!b.token) await b.refreshToken();
      const res = await b.agent.post('/api/auth/signup').set('x-csrf-token', b.token).set('x-forwarded-for', ip).send(parent);
      return { res, parent };
    },
  };
}

describe('sign-up limits', () => {
  it(`takes ${PER_ADDRESS} sign-ups an hour from one address, then 429 with no account and no mail`, async () => {
    const ip = freshAddress();
    for (let i = 0; i < PER_ADDRESS; i++) expect((await from(ip).signUp()).res.status).toBe(201);
    const { res, parent } = await from(ip).signUp();
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/too many new accounts/i);
    expect(await shop.db('users').where({ email: parent.email })).toHaveLength(0);
    await flushMail(shop);
    expect(await shop.db('outbox').where({ toAddress: parent.email })).toHaveLength(0);
  });
});

describe('the welcome mail', () => {
  it("greets by a plain first name only, never by a stranger's text", async () => {
    const { res, parent } = await from(freshAddress()).signUp(newParent({ firstName: 'Visit www.evil.example' }));
    expect(res.status).toBe(201);
    await flushMail(shop);
    const [mail] = await shop.db('outbox').where({ toAddress: parent.email });
    expect(mail.textBody).not.toContain('evil');
    expect(mail.htmlBody).not.toContain('evil');
    expect(mail.textBody).toContain('Hello,');
  });
});
