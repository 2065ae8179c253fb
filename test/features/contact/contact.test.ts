import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, formToken, type TestShop } from '../../helpers/app.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

const valid = {
  firstName: 'Maya',
  lastName: 'Okafor',
  email: 'maya@example.com',
  currentMember: 'yes',
  subject: 'URGENT: wrong book in my parcel',
  description: 'Order 12 arrived with the wrong title.',
};

async function messages() {
  return shop.db('contact_messages').select('*');
}

describe('contact page', () => {
  it('shows the form with every field, the URGENT hint and the 24-hour promise', async () => {
    const res = await shop.browser().get('/contact').expect(200);
    for (const name of ['firstName', 'lastName', 'email', 'currentMember', 'subject', 'description']) {
      expect(res.text).toContain(`name="${name}"`);
    }
    expect(res.text).toContain('URGENT');
    expect(res.text).toContain('within 24 hours');
  });

  it('saves a complete message and answers with the success toast after a redirect', async () => {
    const agent = shop.browser();
    const page = await agent.get('/contact');
    const before = (await messages()).length;
    await agent
      .post('/contact')
      .type('form')
      .send({ ...valid, _csrf: formToken(page.text) })
      .expect(303)
      .expect('location', '/contact');
    const after = await agent.get('/contact').expect(200);
    expect(after.text).toContain('Message Sent Successfully!');
    const rows = await messages();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ email: 'maya@example.com', subject: valid.subject });
    const mail = await shop.db('outbox').where({ toAddress: 'maya@example.com' });
    expect(mail.map((m) => m.subject)).toContain('We received your message');
  });

  it.each([
    [{ subject: '' }, 'Please Complete All Fields', 'All fields are required to submit your contact request.'],
    [{ currentMember: undefined }, 'Please Complete All Fields', 'All fields are required to submit your contact request.'],
    [{ email: 'maya-at-example' }, 'Invalid Email Address', 'Please enter a valid email address.'],
  ])('refuses %o with the spec message and keeps what was typed', async (change, title, text) => {
    const agent = shop.browser();
    const page = await agent.get('/contact');
    const before = (await messages()).length;
    const res = await agent
      .post('/contact')
      .type('form')
      .send({ ...valid, ...change, _csrf: formToken(page.text) })
      .expect(400);
    expect(res.text).toContain(title);
    expect(res.text).toContain(text);
    expect(res.text).toContain('value="Maya"');
    expect(await messages()).toHaveLength(before);
  });
});

describe('contact page when the message cannot be kept', () => {
  it("answers 'Failed to Send Message' on the form, filled in as sent, never the generic error page", async () => {
    const agent = shop.browser();
    const page = await agent.get('/contact');
    // A real server failure: the table the message goes into is gone for a moment.
    await shop.db.schema.renameTable('contact_messages', 'contact_messages_away');
    let res;
    try {
      res = await agent
        .post('/contact')
        .type('form')
        .send({ ...valid, _csrf: formToken(page.text) });
    } finally {
      await shop.db.schema.renameTable('contact_messages_away', 'contact_messages');
    }
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.text).toContain('Failed to Send Message');
    expect(res.text).toContain('There was an error sending your message. Please try again.');
    expect(res.text).not.toContain('Something went wrong');
    expect(res.text).toContain('<h1>Contact Us</h1>');
    expect(res.text).toContain('value="Maya"');
    expect(res.text).toContain('value="maya@example.com"');
    expect(res.text).toContain(`value="${valid.subject}"`);
    expect(res.text).toContain(`>${valid.description}</textarea>`);
    expect(res.text).toMatch(/value="yes" required checked/);
  });
});

describe('POST /api/contact', () => {
  it('saves a message', async () => {
    const agent = shop.browser();
    const token = await csrfTokenFor(agent);
    const res = await agent.post('/api/contact').set('x-csrf-token', token).send(valid).expect(201);
    expect(res.body.message).toBe('Message Sent Successfully!');
  });

  it.each([
    [{ firstName: '   ' }, 'All fields are required to submit your contact request.'],
    [{ email: 'nope' }, 'Please enter a valid email address.'],
    [{ currentMember: 'maybe' }, 'All fields are required to submit your contact request.'],
    [{ description: 42 }, 'All fields are required to submit your contact request.'],
  ])('refuses %o with 400 and the spec message', async (change, message) => {
    const agent = shop.browser();
    const token = await csrfTokenFor(agent);
    const res = await agent
      .post('/api/contact')
      .set('x-csrf-token', token)
      .send({ ...valid, ...change })
      .expect(400);
    expect(res.body).toEqual({ message });
  });
});
