import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, csrfTokenFor, formToken, TEST_LIMITS, type TestShop } from '../../helpers/app.ts';

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

  it('saves a complete message and shows a lasting thank-you in place of the form, saying where the reply goes', async () => {
    const agent = shop.browser();
    const page = await agent.get('/contact');
    const before = (await messages()).length;
    await agent
      .post('/contact')
      .type('form')
      .send({ ...valid, _csrf: formToken(page.text) })
      .expect(303)
      .expect('location', '/contact/sent');
    const sent = await agent.get('/contact/sent').expect(200);
    expect(sent.text).toContain('<h2 id="contact-sent-title">Message Sent Successfully!</h2>');
    expect(sent.text).toContain(
      'Thank you for reaching out, Maya. We\'ll reply to <span class="email">maya@<wbr>example<wbr>.com</span>, typically within 24 hours.',
    );
    expect(sent.text).toContain('<a href="/contact" role="button" class="secondary">Send another message</a>');
    expect(sent.text).not.toContain('id="contact-form"');
    // Not a toast: it stays on a reload, and the form is one link away.
    expect(sent.text).not.toContain('toast-success');
    expect((await agent.get('/contact/sent').expect(200)).text).toContain('Message Sent Successfully!');
    expect((await agent.get('/contact').expect(200)).text).toContain('id="contact-form"');
    const rows = await messages();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ email: 'maya@example.com', subject: valid.subject });
    const mail = await shop.db('outbox').where({ toAddress: 'maya@example.com' });
    expect(mail.map((m) => m.subject)).toContain('We received your message');
  });

  it('sends a visitor who has sent nothing to the form from /contact/sent', async () => {
    await shop.browser().get('/contact/sent').expect(303).expect('location', '/contact');
  });

  it('escapes the name and address the thank-you repeats', async () => {
    const agent = shop.browser();
    const page = await agent.get('/contact');
    await agent
      .post('/contact')
      .type('form')
      .send({ ...valid, firstName: '<b>Maya</b>', email: 'x"<i>@example.com', _csrf: formToken(page.text) })
      .expect(303);
    const sent = await agent.get('/contact/sent').expect(200);
    expect(sent.text).toContain('Thank you for reaching out, &lt;b&gt;Maya&lt;/b&gt;.');
    expect(sent.text).toContain('x&quot;&lt;i&gt;@<wbr>example<wbr>.com');
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

describe('a refused contact message', () => {
  it('lists every problem at once above the form, marks each field, and keeps what was typed', async () => {
    const agent = shop.browser();
    const page = await agent.get('/contact');
    const res = await agent
      .post('/contact')
      .type('form')
      .send({ ...valid, firstName: '', subject: ' ', email: 'maya-at-example', _csrf: formToken(page.text) })
      .expect(400);
    const summary = /<div class="form-problems"[^>]*>[\s\S]*?<\/div>/.exec(res.text)?.[0] ?? '';
    expect(summary).toContain('role="alert"');
    expect(summary).toContain('autofocus');
    expect(summary).toContain('Please Complete All Fields');
    expect(summary).toContain('All fields are required to submit your contact request.');
    expect([...summary.matchAll(/<a href="#([\w-]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]])).toEqual([
      ['contact-first', 'Please enter your first name.'],
      ['contact-email', 'Please enter a valid email address.'],
      ['contact-subject', 'Please enter a subject.'],
    ]);
    expect(res.text).toMatch(/id="contact-first"[^>]* aria-invalid="true" aria-describedby="contact-first-error"/);
    expect(res.text).toMatch(/id="contact-subject"[^>]* aria-invalid="true" aria-describedby="subject-hint contact-subject-error"/);
    expect(res.text).toContain('<small id="contact-email-error" class="field-error">Please enter a valid email address.</small>');
    expect(res.text).not.toMatch(/id="contact-last"[^>]*aria-invalid/);
    expect(res.text).toContain('value="maya-at-example"');
    expect(res.text).toContain(`>${valid.description}</textarea>`);
    // Toasts only confirm success.
    expect(res.text).not.toContain('toast-error');
  });
});

describe('a contact message over the network limit', () => {
  let limited: TestShop;
  beforeAll(async () => {
    limited = await buildTestShop({
      limits: { ...TEST_LIMITS, 'contact-session': { points: 1, windowMs: 60_000 } },
      env: { SHOP_CONTACT_EMAIL: 'letters@lantern.example' },
    });
  });
  afterAll(() => limited.close());

  it("keeps the message, says 'Failed to Send Message' and gives the shop's address to write to", async () => {
    const agent = limited.browser();
    const page = await agent.get('/contact');
    expect(page.text).toContain('href="mailto:letters@lantern.example"');
    await agent
      .post('/contact')
      .type('form')
      .send({ ...valid, _csrf: formToken(page.text) })
      .expect(303);
    const again = await agent.get('/contact');
    const second = { ...valid, subject: 'One more thing', description: 'A second, long message I would hate to type again.' };
    const res = await agent
      .post('/contact')
      .type('form')
      .send({ ...second, _csrf: formToken(again.text) })
      .expect(429);
    const summary = /<div class="form-problems"[^>]*>[\s\S]*?<\/div>/.exec(res.text)?.[0] ?? '';
    expect(summary).toContain('Failed to Send Message');
    expect(summary).toContain('Too many messages from your network.');
    expect(res.text).not.toContain('Please Try Again Later');
    expect(res.text).toContain(`>${second.description}</textarea>`);
    expect(res.text).toContain(`value="${second.subject}"`);
    expect(res.text).toMatch(
      /contact-fallback[^>]*>[^<]*write to us at <a href="mailto:letters@lantern.example">letters@lantern.example<\/a>/,
    );
    expect(res.text).not.toContain('toast-error');
  });

  it('falls back to the address in MAIL_FROM when no contact address is configured', async () => {
    const page = await shop.browser().get('/contact');
    expect(page.text).toContain('href="mailto:hello@littlelanternbooks.example"');
  });
});
