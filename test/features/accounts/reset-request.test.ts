import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deferred } from '../../../src/lib/deferred.ts';
import { ApiBrowser, newParent, type Parent } from '../../helpers/accounts.ts';
import { buildTestShop, flushMail, formToken, type TestShop } from '../../helpers/app.ts';

// A reset request answers before anything is looked up, so nothing in the answer (its
// content or its timing) can tell whether the email has an account. The work follows.

/** Holds the shop's after-the-answer work until the test lets it run. */
function heldWork(): Deferred & { release(): Promise<void>; waiting(): number } {
  let tasks: Array<() => Promise<unknown>> = [];
  return {
    run: (task) => void tasks.push(task),
    settled: async () => {
      while (tasks.length > 0) {
        const batch = tasks;
        tasks = [];
        await Promise.all(batch.map((t) => t()));
      }
    },
    async release() {
      await this.settled();
    },
    waiting: () => tasks.length,
  };
}

const later = heldWork();
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ seed: false, env: { TRUST_PROXY: '1' }, later });
});
afterAll(() => shop.close());

let address = 0;
function browser() {
  const b = new ApiBrowser(shop.browser());
  const ip = `100.80.0.${++address}`;
  return {
    b,
    post: async (path: string, body: object) => {
      await b.refreshToken();
      return b.agent.post(path).set('x-csrf-token', b.token).set('x-forwarded-for', ip).send(body);
    },
  };
}

async function registered(): Promise<Parent> {
  const parent = newParent();
  expect((await new ApiBrowser(shop.browser()).signUp(parent)).status).toBe(201);
  await flushMail(shop);
  return parent;
}

const HEADERS_THAT_MATTER = ['content-type', 'content-length', 'cache-control', 'location'];
const shape = (res: { status: number; body: unknown; text: string; headers: Record<string, string> }) => ({
  status: res.status,
  body: res.body,
  text: res.text,
  headers: Object.fromEntries(HEADERS_THAT_MATTER.map((h) => [h, res.headers[h]])),
  setsCookie: Boolean(res.headers['set-cookie']),
});

async function resetMails(email: string) {
  return shop.db('outbox').where({ toAddress: email, subject: 'Reset your Little Lantern Books password' });
}

describe('asking for a reset link', () => {
  it('answers a known and an unknown email identically, before looking either up; the known one gets its link afterwards', async () => {
    const parent = await registered();
    const known = await browser().post('/api/auth/reset-password', { email: parent.email });
    const unknown = await browser().post('/api/auth/reset-password', { email: `nobody.${Date.now()}@example.com` });

    expect(shape(known)).toEqual(shape(unknown));
    expect(known.status).toBe(200);
    // Both answers went out with the lookups still waiting to run.
    expect(later.waiting()).toBe(2);
    expect(await shop.db('accountTokens').where({ purpose: 'reset-link' })).toHaveLength(0);

    await later.release();
    await flushMail(shop);
    expect(await resetMails(parent.email)).toHaveLength(1);
  });

  it('answers the plain-HTML form identically too', async () => {
    const parent = await registered();
    const ask = async (email: string) => {
      const agent = shop.browser();
      const page = await agent.get('/reset-password').expect(200);
      return agent
        .post('/reset-password')
        .type('form')
        .send({ _csrf: formToken(page.text), email });
    };
    const known = await ask(parent.email);
    const unknown = await ask(`ghost.${Date.now()}@example.com`);
    expect(shape(known)).toEqual(shape(unknown));
    expect(known.status).toBe(303);

    await later.release();
    await flushMail(shop);
    expect(await resetMails(parent.email)).toHaveLength(1);
  });

  it('still mails one link per account per 30 minutes when many requests run their work at once', async () => {
    const parent = await registered();
    await Promise.all(Array.from({ length: 10 }, () => browser().post('/api/auth/reset-password', { email: parent.email })));
    await later.release();
    await flushMail(shop);
    expect(await resetMails(parent.email)).toHaveLength(1);
  });

  it('mails one link per recipient from many addresses, however the address is written', async () => {
    const parent = await registered();
    const spellings = [parent.email, parent.email.toUpperCase(), parent.email.replace(/^./, (c) => c.toUpperCase())];
    for (const email of [...spellings, ...spellings])
      expect((await browser().post('/api/auth/reset-password', { email })).status).toBe(200);
    await later.release();
    await flushMail(shop);
    expect(await resetMails(parent.email)).toHaveLength(1);
  });

  it("holds the interval in the shared throttle store too, not only in the account's row", async () => {
    const parent = await registered();
    await browser().post('/api/auth/reset-password', { email: parent.email });
    await later.release();
    await shop.db('users').where({ email: parent.email }).update({ resetLinkSentAt: null });
    await browser().post('/api/auth/reset-password', { email: parent.email });
    await later.release();
    await flushMail(shop);
    expect(await resetMails(parent.email)).toHaveLength(1);
  });
});
