import supertest from 'supertest';
import type { Agent } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, flushMail, formToken, TEST_LIMITS, type TestShop } from '../../helpers/app.ts';
import { textOf } from '../../helpers/admin-fixtures.ts';
import { addBook, bookFormFields, postAdminForm } from '../../helpers/book-admin.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { rawGet } from '../../helpers/raw-http.ts';
import { fieldProblem, summaryForms, summaryOf, toastsOf, valueOf } from '../../helpers/refusals.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { BACK_IN_STOCK_LIMITS, BACK_IN_STOCK_MESSAGES } from '../../../src/features/back-in-stock/back-in-stock.schemas.ts';

// "Email me when it's back": a request kept once per inbox and book, one email when an
// operator's stock edit brings the book back, and a link in every mail that cancels it.
let sink: SmtpSink;
let shop: TestShop;
let operator: Agent;

beforeAll(async () => {
  sink = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: sink.url, TRUST_PROXY: '1' } });
  ({ agent: operator } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
  await sink.close();
});

let n = 0;
const freshEmail = () => `parent${++n}@example.net`;
let ip = 0;
const freshClient = () => `10.9.${ip >> 8}.${++ip & 255}`;

/** A visitor without a session asks from the book page, as the browser's form does. */
function ask(bookId: number | string, email: string, client = freshClient()) {
  return supertest(shop.app)
    .post(`/books/${bookId}/notify`)
    .set('Sec-Fetch-Site', 'same-origin')
    .set('X-Forwarded-For', client)
    .type('form')
    .send({ _csrf: '', email });
}

const comingSoon = (title: string) => addBook(operator, { isbn: '', title, stock: '0' });
const setShelf = (id: number, stock: string) =>
  postAdminForm(operator, '/admin/books', `/admin/books/${id}/stock`, { stock, back: '/admin/books' });

async function waiting(bookId: number): Promise<string[]> {
  const rows: Array<{ email: string }> = await shop.db('backInStockRequests').where({ bookId }).select('email');
  return rows.map((r) => r.email);
}

async function mailsTo(email: string, about: string) {
  await flushMail(shop);
  return sink.received.filter((m) => m.rcptTo.includes(email) && m.raw.includes(about));
}

const backSubject = (title: string) => `${title} is back in stock`;

/**
 * A refusal told as every form tells one (src/web/form-problems.ts): the form again, its summary
 * first (focused on load, the problem a link to the field), the message beside the field and
 * tied to it, and the address as it was typed.
 */
function expectRefusedForm(html: string, { message, typed }: { message: string | RegExp; typed: string }): void {
  expect(summaryForms(html)).toEqual(['notify']);
  const summary = summaryOf(html, 'notify')!;
  expect(summary.title).toBe(BACK_IN_STOCK_MESSAGES.refused);
  expect(summary.items).toHaveLength(1);
  expect(summary.items[0]).toMatch(message);
  expect(summary.links).toEqual(['#notify-email']);
  expect(html).toMatch(/<div class="form-problems" id="notify-problems" role="alert" tabindex="-1" autofocus/);
  const field = fieldProblem(html, 'notify-email');
  expect(field.invalid).toBe(true);
  expect(field.tag).toContain('aria-describedby="notify-hint notify-email-error"');
  expect(field.message).toBe(summary.items[0]);
  expect(valueOf(html, 'notify-email')).toBe(typed);
  expect(html).toMatch(
    /<form method="post" action="\/books\/\d+\/notify"[\s\S]*<button type="submit"[^>]*>Email me when it's back<\/button>/,
  );
  expect(toastsOf(html)).toEqual([]);
}

function unsubscribeLink(raw: string): string {
  const match = /https?:\/\/[^\s"<>]+\/notify\/unsubscribe\?token=[A-Za-z0-9_.-]+/.exec(raw);
  if (!match) throw new Error('no unsubscribe link in the mail');
  return new URL(match[0]).pathname + new URL(match[0]).search;
}

describe('the form on a Coming Soon book', () => {
  it('is offered on a Coming Soon book, with a labelled email field, and viewing the page creates no session', async () => {
    const id = await comingSoon('The Night Garden');
    const page = await rawGet(shop.app, `/books/${id}`, { 'Accept-Encoding': 'identity' });
    const html = page.body.toString('utf8');
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(html).toContain(`action="/books/${id}/notify"`);
    expect(html).toContain("Email me when it's back");
    expect(html).toMatch(/<label for="notify-email">[^<]*<\/label>\s*<input id="notify-email"[^>]*type="email"/);
  });

  it("works for a visitor with a session too: the page carries the session's form token, and the request needs it", async () => {
    const id = await comingSoon('Asked With A Cart');
    const visitor = supertest.agent(shop.app);
    await visitor.post('/cart').set('Sec-Fetch-Site', 'same-origin').type('form').send({ _csrf: '', bookId: '1', quantity: '1' });
    const page = await visitor.get(`/books/${id}`).expect(200);
    const token = formToken(page.text.slice(page.text.indexOf('class="notify-form"')));
    const email = freshEmail();
    const forged = await visitor.post(`/books/${id}/notify`).set('Sec-Fetch-Site', 'same-origin').type('form').send({ _csrf: '', email });
    expect(forged.status).toBe(403);
    const res = await visitor.post(`/books/${id}/notify`).set('Sec-Fetch-Site', 'same-origin').type('form').send({ _csrf: token, email });
    expect(res.status).toBe(200);
    expect(await waiting(id)).toEqual([email]);
  });

  it('is not offered on a book in stock; a request for it says the book can be bought now and keeps nothing', async () => {
    const id = await addBook(operator, { isbn: '', title: 'Plenty Of Copies', stock: '8' });
    const page = await rawGet(shop.app, `/books/${id}`, { 'Accept-Encoding': 'identity' });
    expect(page.body.toString('utf8')).not.toContain(`/books/${id}/notify`);
    const email = freshEmail().toUpperCase();
    const res = await ask(id, email);
    expect(res.status).toBe(409);
    expect(textOf(res.text)).toContain(BACK_IN_STOCK_MESSAGES.inStock);
    expectRefusedForm(res.text, { message: BACK_IN_STOCK_MESSAGES.inStock, typed: email });
    expect(await waiting(id)).toEqual([]);
  });

  it('answers 404 for a hidden book or one that does not exist, and keeps nothing', async () => {
    const id = await comingSoon('Hidden Away');
    await postAdminForm(operator, `/admin/books/${id}/edit`, `/admin/books/${id}/hide`, {});
    const email = freshEmail();
    expect((await ask(id, email)).status).toBe(404);
    expect((await ask(999999, email)).status).toBe(404);
    expect((await ask('not-a-book', email)).status).toBe(404);
    expect(await waiting(id)).toEqual([]);
  });

  it('refuses a bad email with 400 and the form again: summary, the message beside the field, the address as typed; keeps nothing', async () => {
    const id = await comingSoon('Bad Address Book');
    for (const email of ['', 'not-an-email', 'two words@example.com', `${'a'.repeat(250)}@example.com`, 'Parent@Example']) {
      const res = await ask(id, email);
      expect(res.status).toBe(400);
      expect(textOf(res.text)).toMatch(/valid email address|at most 254 characters/);
      expectRefusedForm(res.text, { message: /valid email address|at most 254 characters/, typed: email });
    }
    expect(await waiting(id)).toEqual([]);
  });

  it('reads an address sent twice in one form as no address: 400 in words a parent understands', async () => {
    const id = await comingSoon('Twice Asked Book');
    const res = await supertest(shop.app)
      .post(`/books/${id}/notify`)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('X-Forwarded-For', freshClient())
      .type('form')
      .send('_csrf=&email=a%40example.com&email=b%40example.com');
    expect(res.status).toBe(400);
    expect(textOf(res.text)).toContain('Please enter a valid email address');
    expect(textOf(res.text)).not.toMatch(/Invalid input|expected string/);
    expectRefusedForm(res.text, { message: 'Please enter a valid email address', typed: '' });
    expect(await waiting(id)).toEqual([]);
  });

  it('comes back after a bad email with the session token its first POST created, so the retry is taken', async () => {
    const id = await comingSoon('Second Try');
    const visitor = supertest.agent(shop.app);
    const send = (body: Record<string, string>) =>
      visitor.post(`/books/${id}/notify`).set('Sec-Fetch-Site', 'same-origin').type('form').send(body);
    const refused = await send({ _csrf: '', email: 'second.try@example' });
    expect(refused.status).toBe(400);
    const email = freshEmail();
    expect((await send({ _csrf: formToken(refused.text), email })).status).toBe(200);
    expect(await waiting(id)).toEqual([email]);
  });
});

describe('a request', () => {
  it('is kept once however many times it is made, with the same answer each time', async () => {
    const id = await comingSoon('Asked Three Times');
    const email = freshEmail();
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await ask(id, i === 1 ? email.toUpperCase() : email);
      expect(res.status).toBe(200);
      answers.push(textOf(res.text));
    }
    expect(answers[0]).toContain(BACK_IN_STOCK_MESSAGES.requested.title('Asked Three Times'));
    expect(answers[0]).toContain("We'll email you when Asked Three Times is back");
    expect(new Set(answers).size).toBe(1);
    expect(await waiting(id)).toEqual([email]);
    // One confirmation, carrying the link that cancels it.
    expect(await mailsTo(email, 'We will email you when Asked Three Times is back')).toHaveLength(1);
  });

  it('is mailed exactly once when a stock edit brings the book back, and then forgotten', async () => {
    const id = await comingSoon('Back From The Printer');
    const email = freshEmail();
    const other = freshEmail();
    await ask(id, email);
    await ask(id, other);

    await setShelf(id, '0'); // 0 to 0: still Coming Soon
    expect(await mailsTo(email, backSubject('Back From The Printer'))).toHaveLength(0);

    await setShelf(id, '3'); // 0 to 3: back
    const mails = await mailsTo(email, backSubject('Back From The Printer'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toContain(`${shop.config.publicUrl}/books/${id}`);
    expect(mails[0]!.raw).toContain('/notify/unsubscribe?token=');
    expect(await mailsTo(other, backSubject('Back From The Printer'))).toHaveLength(1);
    expect(await waiting(id)).toEqual([]);

    // A request that slipped in as the book came back is not mailed by an edit that keeps it in stock.
    const late = freshEmail();
    await shop.db('backInStockRequests').insert({ bookId: id, email: late, inbox: late });
    await setShelf(id, '5'); // 3 to 5: nothing new
    expect(await mailsTo(late, backSubject('Back From The Printer'))).toHaveLength(0);
    await shop.db('backInStockRequests').where({ email: late }).delete();
    await setShelf(id, '0');
    await setShelf(id, '2'); // back again, but nobody asked again
    expect(await mailsTo(email, backSubject('Back From The Printer'))).toHaveLength(1);
  });

  it('is mailed when the edit form brings the book back too', async () => {
    const id = await comingSoon('Edited Back');
    const email = freshEmail();
    await ask(id, email);
    const page = await operator.get(`/admin/books/${id}/edit`).expect(200);
    expect(textOf(page.text)).toContain('1 parent waiting for an email');
    const res = await postAdminForm(
      operator,
      `/admin/books/${id}/edit`,
      `/admin/books/${id}`,
      bookFormFields({ isbn: '', title: 'Edited Back', stock: '4' }),
    );
    expect(res.status).toBe(303);
    expect(await mailsTo(email, backSubject('Edited Back'))).toHaveLength(1);
  });
});

describe('a hidden book', () => {
  it('restocked while hidden keeps its requests, and mails them when it is put back on sale', async () => {
    const id = await comingSoon('Hidden While Reprinted');
    const email = freshEmail();
    await ask(id, email);
    await postAdminForm(operator, `/admin/books/${id}/edit`, `/admin/books/${id}/hide`, {});
    await setShelf(id, '7');
    expect(await mailsTo(email, backSubject('Hidden While Reprinted'))).toHaveLength(0);
    expect(await waiting(id)).toEqual([email]);
    await postAdminForm(operator, `/admin/books/${id}/edit`, `/admin/books/${id}/unhide`, {});
    expect(await mailsTo(email, backSubject('Hidden While Reprinted'))).toHaveLength(1);
    expect(await waiting(id)).toEqual([]);
  });
});

describe('unsubscribe', () => {
  it('shows a page with a button on GET and changes nothing; the button cancels the request; nothing is sent after', async () => {
    const id = await comingSoon('Changed My Mind');
    const email = freshEmail();
    await ask(id, email);
    const [confirmation] = await mailsTo(email, 'We will email you when Changed My Mind is back');
    const link = unsubscribeLink(confirmation!.raw);

    const visitor = supertest.agent(shop.app);
    const page = await visitor.get(link).expect(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(textOf(page.text)).toContain('Changed My Mind');
    expect(await waiting(id)).toEqual([email]);

    const token = new URLSearchParams(link.split('?')[1]).get('token')!;
    const done = await visitor.post(`/notify/unsubscribe?token=${token}`).set('Sec-Fetch-Site', 'same-origin').type('form').send({});
    expect(done.status).toBe(200);
    expect(textOf(done.text)).toContain(BACK_IN_STOCK_MESSAGES.unsubscribed.title);
    expect(await waiting(id)).toEqual([]);

    await setShelf(id, '6');
    expect(await mailsTo(email, backSubject('Changed My Mind'))).toHaveLength(0);
  });

  it('takes the one-click POST a mail app sends (RFC 8058), from another site, without a form token', async () => {
    const id = await comingSoon('One Click Away');
    const email = freshEmail();
    await ask(id, email);
    const [confirmation] = await mailsTo(email, 'We will email you when One Click Away is back');
    // (The test server decodes the whole message as quoted-printable, so "=" in a header may not survive.)
    const headers = confirmation!.raw.replace(/\r\n[ \t]+/g, ' ');
    expect(headers).toMatch(/List-Unsubscribe: <https?:\/\/[^>]+\/notify\/unsubscribe\?token/);
    expect(headers).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const res = await supertest(shop.app).post(unsubscribeLink(confirmation!.raw)).type('form').send('List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    expect(await waiting(id)).toEqual([]);
  });

  it('refuses a token that was tampered with (400) and cancels nothing', async () => {
    const id = await comingSoon('Tamper Proof');
    const email = freshEmail();
    await ask(id, email);
    const [confirmation] = await mailsTo(email, 'We will email you when Tamper Proof is back');
    const token = new URLSearchParams(unsubscribeLink(confirmation!.raw).split('?')[1]).get('token')!;
    const forged = `${token.slice(0, -2)}xx`;
    expect((await supertest(shop.app).get(`/notify/unsubscribe?token=${forged}`)).status).toBe(400);
    const res = await supertest(shop.app)
      .post(`/notify/unsubscribe?token=${forged}`)
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({});
    expect(res.status).toBe(400);
    expect(await waiting(id)).toEqual([email]);
  });
});

describe('the operator', () => {
  it('sees how many parents are waiting per book in /admin/books and on the book', async () => {
    const id = await comingSoon('Much Awaited');
    for (let i = 0; i < 3; i++) await ask(id, freshEmail());
    // The newest book is on the last page.
    const list = await operator.get('/admin/books?page=999').expect(200);
    expect(list.text).toMatch(new RegExp(`id="waiting-${id}"[^>]*>3<`));
    expect(textOf((await operator.get(`/admin/books/${id}/edit`).expect(200)).text)).toContain('3 parents waiting for an email');
  });
});

describe('throttles', () => {
  let limited: TestShop;
  beforeAll(async () => {
    limited = await buildTestShop({ seed: false, env: { TRUST_PROXY: '1' }, limits: { ...TEST_LIMITS } });
  });
  afterAll(() => limited.close());

  const askLimited = (bookId: number, email: string, client: string) =>
    supertest(limited.app)
      .post(`/books/${bookId}/notify`)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('X-Forwarded-For', client)
      .type('form')
      .send({ _csrf: '', email });

  async function comingSoonBooks(count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const [id] = await limited.db('books').insert({
        title: `Throttle ${i}`,
        author: 'A. Author',
        description: 'Words.',
        price: 10,
        inStock: 0,
        publishedOn: '2026-01-01',
        publisher: 'Little Lantern Books',
        ageRange: '3-5',
      });
      ids.push(Number(id));
    }
    return ids;
  }

  it(`refuses the request after ${BACK_IN_STOCK_LIMITS.perAddress} for one address with 429, from any client, and keeps nothing`, async () => {
    const books = await comingSoonBooks(BACK_IN_STOCK_LIMITS.perAddress + 1);
    const email = 'someone-else@example.net';
    for (const id of books.slice(0, -1)) expect((await askLimited(id, email, freshClient())).status).toBe(200);
    const refused = await askLimited(books.at(-1)!, email, freshClient());
    expect(refused.status).toBe(429);
    expect(textOf(refused.text)).toContain(BACK_IN_STOCK_MESSAGES.tooMany);
    expectRefusedForm(refused.text, { message: BACK_IN_STOCK_MESSAGES.tooMany, typed: email });
    expect(await limited.db('backInStockRequests').where({ bookId: books.at(-1)! })).toHaveLength(0);
  });

  it('caps the confirmations one recipient gets from many clients, however the address is written', async () => {
    const books = await comingSoonBooks(BACK_IN_STOCK_LIMITS.perAddress + 3);
    const spellings = ['victim@example.net', 'Victim@Example.net', 'VICTIM@EXAMPLE.NET'];
    const answers = await Promise.all(books.map((id, i) => askLimited(id, spellings[i % spellings.length]!, freshClient())));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(BACK_IN_STOCK_LIMITS.perAddress);
    const confirmations = await limited.db('outbox').whereRaw('lower(to_address) = ?', ['victim@example.net']);
    expect(confirmations).toHaveLength(BACK_IN_STOCK_LIMITS.perAddress);
  });

  it(`refuses the request after ${BACK_IN_STOCK_LIMITS.perClient} from one client with 429, whatever the address`, async () => {
    const [id] = await comingSoonBooks(1);
    const client = freshClient();
    for (let i = 0; i < BACK_IN_STOCK_LIMITS.perClient; i++) expect((await askLimited(id!, freshEmail(), client)).status).toBe(200);
    const email = ` ${freshEmail().toUpperCase()} `;
    const refused = await askLimited(id!, email, client);
    expect(refused.status).toBe(429);
    expectRefusedForm(refused.text, { message: BACK_IN_STOCK_MESSAGES.tooMany, typed: email });
    expect(await limited.db('backInStockRequests').where({ email: email.trim().toLowerCase() })).toHaveLength(0);
  });
});
