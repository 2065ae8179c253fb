import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { buildTestShop, csrfTokenFor, flushMail, formToken, type TestShop } from '../../helpers/app.ts';
import { CONTACT_MAIL_LIMITS } from '../../../src/features/contact/contact.schemas.ts';

// The acknowledgement goes to whatever address the form names, so the form must not become a
// way to mail strangers: sends are limited, and the mail carries none of the sender's text.
const PER_ADDRESS = 10;
const PER_SESSION = 3;

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ seed: false, env: { TRUST_PROXY: '1' }, limits: {} });
});
afterAll(() => shop.close());

let n = 0;
function message(overrides: Record<string, string> = {}) {
  n++;
  return {
    firstName: 'Maya',
    lastName: 'Okafor',
    email: `stranger${n}@example.net`,
    currentMember: 'no',
    subject: `Question ${n}`,
    description: 'Where is my parcel?',
    ...overrides,
  };
}

let address = 0;
const freshAddress = () => `172.16.${address >> 8}.${++address & 255}`;

async function postApi(ip: string, body: object, agent = shop.browser()) {
  const token = await csrfTokenFor(agent);
  return agent.post('/api/contact').set('x-csrf-token', token).set('x-forwarded-for', ip).send(body);
}

async function saved(email: string): Promise<number> {
  return (await shop.db('contact_messages').where({ email })).length;
}

async function mailedTo(email: string) {
  await flushMail(shop);
  return shop.db('outbox').where({ toAddress: email });
}

describe('contact form limits', () => {
  it(`takes ${PER_ADDRESS} messages an hour from one address, then answers 429 and sends nothing`, async () => {
    const ip = freshAddress();
    for (let i = 0; i < PER_ADDRESS; i++) expect((await postApi(ip, message())).status).toBe(201);
    const refused = message();
    const res = await postApi(ip, refused);
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/too many messages/i);
    expect(await saved(refused.email)).toBe(0);
    expect(await mailedTo(refused.email)).toHaveLength(0);
  });

  it(`takes ${PER_SESSION} messages an hour from one session, whatever address it comes from`, async () => {
    const agent = shop.browser();
    for (let i = 0; i < PER_SESSION; i++) expect((await postApi(freshAddress(), message(), agent)).status).toBe(201);
    expect((await postApi(freshAddress(), message(), agent)).status).toBe(429);
  });

  it('refuses the plain-HTML form the same way, with a readable message on the page', async () => {
    const agent = shop.browser();
    const ip = freshAddress();
    let last: supertest.Response | undefined;
    for (let i = 0; i <= PER_SESSION; i++) {
      const page = await agent.get('/contact').set('x-forwarded-for', ip);
      last = await agent
        .post('/contact')
        .set('x-forwarded-for', ip)
        .type('form')
        .send({ ...message(), _csrf: formToken(page.text) });
    }
    expect(last!.status).toBe(429);
    expect(last!.text).toMatch(/too many messages/i);
    expect(last!.text).toContain('value="Maya"');
  });

  it('a burst of parallel posts from one address gets no more than the limit through', async () => {
    const ip = freshAddress();
    const answers = await Promise.all(Array.from({ length: 40 }, () => postApi(ip, message())));
    expect(answers.filter((a) => a.status === 201).length).toBeLessThanOrEqual(PER_ADDRESS);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 429)).toHaveLength(0);
  });
});

describe('the acknowledgement mail', () => {
  it("carries none of the sender's subject or message, only a plain first name", async () => {
    const sent = message({ subject: 'Claim your prize at http://evil.example', description: 'Click http://evil.example now' });
    expect((await postApi(freshAddress(), sent)).status).toBe(201);
    const [mail] = await mailedTo(sent.email);
    expect(mail).toBeDefined();
    for (const body of [mail.textBody, mail.htmlBody, mail.subject]) {
      expect(body).not.toContain('evil.example');
      expect(body).not.toContain('prize');
    }
    expect(mail.textBody).toContain('Hello Maya,');
  });

  it('leaves out a first name that is not a plain name', async () => {
    const sent = message({ firstName: 'Win at www.evil.example' });
    expect((await postApi(freshAddress(), sent)).status).toBe(201);
    const [mail] = await mailedTo(sent.email);
    expect(mail.textBody).not.toContain('evil');
    expect(mail.htmlBody).not.toContain('evil');
    expect(mail.textBody).toContain('Hello,');
  });
});

describe('mail to one recipient, whoever sends the form', () => {
  const ACKNOWLEDGEMENTS = CONTACT_MAIL_LIMITS.acknowledgementsPerRecipient;
  const SHOP_ADDRESS = 'orders@littlelantern.example';
  let capped: TestShop;
  beforeAll(async () => {
    capped = await buildTestShop({ seed: false, env: { TRUST_PROXY: '1', SHOP_NOTIFY_EMAIL: SHOP_ADDRESS }, limits: {} });
  });
  afterAll(() => capped.close());

  async function post(ip: string, body: object) {
    const agent = capped.browser();
    const token = await csrfTokenFor(agent);
    return agent.post('/api/contact').set('x-csrf-token', token).set('x-forwarded-for', ip).send(body);
  }

  const outboxTo = (email: string) => capped.db('outbox').whereRaw('lower(to_address) = ?', [email.toLowerCase()]);

  it(`keeps every message but acknowledges at most ${ACKNOWLEDGEMENTS} to one address and tells the shop once`, async () => {
    const victim = 'victim@example.org';
    const spellings = [victim, 'Victim@Example.org', 'VICTIM@EXAMPLE.ORG'];
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(freshAddress(), message({ email: spellings[i % spellings.length]! }))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.message))).toEqual(new Set(['Message Sent Successfully!']));
    expect(await capped.db('contact_messages').whereRaw('lower(email) = ?', [victim])).toHaveLength(10);
    await flushMail(capped);
    expect(await outboxTo(victim)).toHaveLength(ACKNOWLEDGEMENTS);
    expect(await outboxTo(SHOP_ADDRESS)).toHaveLength(1);
  });

  it('still acknowledges another address, while the shop hears nothing more within the window', async () => {
    const other = message();
    expect((await post(freshAddress(), other)).status).toBe(201);
    await flushMail(capped);
    expect(await outboxTo(other.email)).toHaveLength(1);
    expect(await outboxTo(SHOP_ADDRESS)).toHaveLength(1);
  });

  it('answers the plain-HTML form with the same thank-you once the cap is spent', async () => {
    const agent = capped.browser();
    const ip = freshAddress();
    const page = await agent.get('/contact').set('x-forwarded-for', ip);
    await agent
      .post('/contact')
      .set('x-forwarded-for', ip)
      .type('form')
      .send({ ...message({ email: 'victim@example.org' }), _csrf: formToken(page.text) })
      .expect(303)
      .expect('location', '/contact/sent');
    expect((await agent.get('/contact/sent')).text).toContain('Message Sent Successfully!');
    expect(await outboxTo('victim@example.org')).toHaveLength(ACKNOWLEDGEMENTS);
  });
});
