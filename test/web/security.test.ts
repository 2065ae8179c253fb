import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, formToken, startSession, type TestShop } from '../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

const message = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  currentMember: 'no',
  subject: 'Hello',
  description: 'A question about book 1.',
};

const address = { address: '1 Main Street', city: 'Springfield', zipCode: '62701' };

async function contactCount() {
  const row = (await shop.db('contact_messages').count({ n: '*' }).first()) as { n: number | string };
  return Number(row.n);
}

describe('CSRF', () => {
  it('refuses a JSON POST without a token with 403 and changes nothing', async () => {
    const before = await contactCount();
    const agent = shop.browser();
    await startSession(agent);
    const res = await agent.post('/api/contact').send(message).expect(403);
    expect(res.body.message).toMatch(/reload the page/);
    expect(await contactCount()).toBe(before);
  });

  it('refuses a first change that says nothing about where it came from, and changes nothing', async () => {
    const before = await contactCount();
    const res = await shop.browser().post('/api/contact').unset('sec-fetch-site').send(message).expect(403);
    expect(res.body.message).toMatch(/reload the page/);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await contactCount()).toBe(before);
  });

  it('refuses a form POST with a wrong token', async () => {
    const agent = shop.browser();
    await startSession(agent);
    await agent.get('/contact').expect(200);
    await agent
      .post('/contact')
      .type('form')
      .send({ ...message, _csrf: 'forged' })
      .expect(403);
  });

  it('refuses a token from another session', async () => {
    const mallory = shop.browser();
    const token = await csrfTokenFor(mallory);
    const parent = shop.browser();
    await startSession(parent);
    await parent.post('/api/contact').set('x-csrf-token', token).send(message).expect(403);
    await shop.browser().post('/api/contact').unset('sec-fetch-site').set('x-csrf-token', token).send(message).expect(403);
  });

  it('accepts the session token as a header (islands) and as a form field', async () => {
    const agent = shop.browser();
    const token = await csrfTokenFor(agent);
    await agent.post('/api/contact').set('x-csrf-token', token).send(message).expect(201);
    const page = await agent.get('/contact').expect(200);
    await agent
      .post('/contact')
      .type('form')
      .send({ ...message, _csrf: formToken(page.text) })
      .expect(303);
  });

  it('accepts a same-origin form post whose Origin is "null", as Chromium sends it', async () => {
    const agent = shop.browser();
    await startSession(agent);
    const page = await agent.get('/contact');
    await agent
      .post('/contact')
      .set('origin', 'null')
      .set('sec-fetch-site', 'same-origin')
      .type('form')
      .send({ ...message, _csrf: formToken(page.text) })
      .expect(303);
  });

  it('sends a same-origin referrer policy', async () => {
    const res = await shop.browser().get('/').expect(200);
    expect(res.headers['referrer-policy']).toBe('same-origin');
  });

  it('refuses unsafe requests a browser marks as cross-site, even with a token', async () => {
    const agent = shop.browser();
    const token = await csrfTokenFor(agent);
    await agent.post('/api/contact').set('x-csrf-token', token).set('sec-fetch-site', 'cross-site').send(message).expect(403);
    await agent.post('/api/contact').set('x-csrf-token', token).set('sec-fetch-site', 'same-site').send(message).expect(403);
    await agent
      .post('/api/contact')
      .unset('sec-fetch-site')
      .set('x-csrf-token', token)
      .set('origin', 'https://evil.example')
      .send(message)
      .expect(403);
  });
});

describe('request bodies', () => {
  it('answers an oversized JSON body with 413 and a message', async () => {
    const agent = shop.browser();
    const token = await csrfTokenFor(agent);
    const res = await agent
      .post('/api/contact')
      .set('x-csrf-token', token)
      .send({ ...message, description: 'x'.repeat(64 * 1024) })
      .expect(413);
    expect(res.body).toEqual({ message: 'The request is too large.' });
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const res = await shop.browser().post('/api/contact').set('content-type', 'application/json').send('{"oops":').expect(400);
    expect(res.body).toEqual({ message: 'The request body is not valid JSON.' });
  });
});

describe('headers', () => {
  it('sends a strict Content-Security-Policy with nothing foreign on ordinary pages', async () => {
    const res = await shop.browser().get('/books').expect(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('stripe');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('sets the session cookie HttpOnly and SameSite=Lax', async () => {
    const res = await shop.browser().post('/api/validate-address').set('sec-fetch-site', 'same-origin').send(address).expect(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/shop\.sid=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });
});
