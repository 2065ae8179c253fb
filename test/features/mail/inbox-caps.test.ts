import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newParent } from '../../helpers/accounts.ts';
import { buildTestShop, csrfTokenFor, flushMail, type TestShop } from '../../helpers/app.ts';
import { createOperator } from '../../helpers/operator.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { SIGNUP } from '../../../src/features/accounts/lockout.rules.ts';
import { BACK_IN_STOCK_LIMITS } from '../../../src/features/back-in-stock/back-in-stock.schemas.ts';
import { CONTACT_MAIL_LIMITS } from '../../../src/features/contact/contact.schemas.ts';
import { inboxOf } from '../../../src/lib/email.ts';

// Every mail cap a stranger can reach counts the inbox an address reaches, not its spelling:
// fifty `+tag`, dot and googlemail.com spellings of one Gmail address, sent from fifty client
// addresses, get no more mail into that inbox than one spelling would. The shop runs with its
// real limits (all but the count of new sessions per client address, as the test's browsers
// share one) and delivers over SMTP.
const REAL_LIMITS = { 'new-session-client': { points: 1_000_000, windowMs: 60_000 } };
let sink: SmtpSink;
let shop: TestShop;
let operatorId: number;

beforeAll(async () => {
  sink = await startSmtpSink();
  shop = await buildTestShop({ env: { SMTP_URL: sink.url, TRUST_PROXY: '1' }, limits: REAL_LIMITS });
  ({ id: operatorId } = await createOperator(shop.db));
});
afterAll(async () => {
  await shop.close();
  await sink.close();
});

let ip = 0;
const freshClient = () => `198.18.${ip >> 8}.${++ip & 255}`;

/** `count` different spellings of `${name}@gmail.com` (name of six letters or more), all one inbox. */
function spellings(name: string, count = 50): string[] {
  const out = new Set<string>();
  for (let i = 0; out.size < count; i++) {
    let local = '';
    for (let j = 0; j < name.length; j++) local += name[j]! + (j < 5 && i & (1 << j) ? '.' : '');
    if (i % 5 === 0) local = local.toUpperCase();
    const tag = i >= 32 || i % 3 === 0 ? `+${i}` : '';
    out.add(`${local}${tag}@${i % 2 ? 'GoogleMail.com' : 'gmail.com'}`);
  }
  const all = [...out];
  expect(new Set(all.map(inboxOf))).toEqual(new Set([`${name}@gmail.com`]));
  return all;
}

/** Runs the requests a few at a time: the machine is small, and the caps must hold either way. */
async function inBatches<T>(work: Array<() => Promise<T>>, size = 10): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < work.length; i += size) results.push(...(await Promise.all(work.slice(i, i + size).map((w) => w()))));
  return results;
}

async function delivered(inbox: string, subject: string) {
  await flushMail(shop);
  return sink.received.filter(
    (m) => m.rcptTo.some((to) => inboxOf(to) === inbox) && m.raw.replace(/\r\n[ \t]+/g, ' ').includes(`Subject: ${subject}`),
  );
}

async function contact(email: string, client = freshClient()) {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  return agent.post('/api/contact').set('x-csrf-token', token).set('x-forwarded-for', client).send({
    firstName: 'Maya',
    lastName: 'Okafor',
    email,
    currentMember: 'no',
    subject: 'Where is my parcel?',
    description: 'It has not come yet.',
  });
}

async function signUp(email: string, client = freshClient()) {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  return agent.post('/api/auth/signup').set('x-csrf-token', token).set('x-forwarded-for', client).send(newParent({ email }));
}

function askWhenBack(bookId: number, email: string, client = freshClient()) {
  return supertest(shop.app)
    .post(`/books/${bookId}/notify`)
    .set('Sec-Fetch-Site', 'same-origin')
    .set('X-Forwarded-For', client)
    .type('form')
    .send({ _csrf: '', email });
}

async function comingSoon(title: string): Promise<number> {
  const [id] = await shop.db('books').insert({
    title,
    author: 'A. Author',
    description: 'Words.',
    price: 10,
    inStock: 0,
    publishedOn: '2026-01-01',
    publisher: 'Little Lantern Books',
    ageRange: '3-5',
  });
  return Number(id);
}
/** An operator's stock edit, as the back office makes it. */
const setShelf = (id: number, stock: number) => shop.services.bookAdmin.setStock(id, stock, operatorId);
const waiting = (bookId: number): Promise<Array<{ email: string; inbox: string }>> =>
  shop.db('backInStockRequests').where({ bookId }).orderBy('id').select('email', 'inbox');

describe('fifty spellings of one inbox from fifty client addresses', () => {
  it(`get ${CONTACT_MAIL_LIMITS.acknowledgementsPerRecipient} contact acknowledgements in all; every message is kept, every answer the same`, async () => {
    const emails = spellings('victim');
    const answers = await inBatches(emails.map((email) => () => contact(email)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.body.message))).toEqual(new Set(['Message Sent Successfully!']));
    expect(await shop.db('contactMessages').whereIn('email', emails)).toHaveLength(50);
    const mails = await delivered('victim@gmail.com', 'We received your message');
    expect(mails).toHaveLength(CONTACT_MAIL_LIMITS.acknowledgementsPerRecipient);
    // Each went to the address as it was typed (the domain as mail servers read it, in any case).
    for (const mail of mails) expect(emails.map((e) => e.toLowerCase())).toContain(mail.rcptTo[0]!.toLowerCase());
  });

  it(`get ${SIGNUP.welcomesPerInbox} welcome mails in all, while every sign-up makes its account`, async () => {
    const emails = spellings('newparent');
    const answers = await inBatches(emails.map((email) => () => signUp(email)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    expect(
      await shop.db('users').whereIn(
        'email',
        emails.map((e) => e.toLowerCase()),
      ),
    ).toHaveLength(50);
    expect(await delivered('newparent@gmail.com', 'Welcome to Little Lantern Books')).toHaveLength(SIGNUP.welcomesPerInbox);
  });

  it('ask for one book once: one request kept, one confirmation, and a restock mails that inbox once', async () => {
    const id = await comingSoon('One Inbox Waiting');
    const emails = spellings('waiting');
    const answers = await inBatches(emails.map((email) => () => askWhenBack(id, email)));
    // The inbox's daily allowance of requests, then the same refusal any address gets past it.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(BACK_IN_STOCK_LIMITS.perAddress);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual(Array(50 - BACK_IN_STOCK_LIMITS.perAddress).fill(429));
    const kept = await waiting(id);
    expect(kept).toHaveLength(1);
    expect(kept[0]!.inbox).toBe('waiting@gmail.com');
    expect(emails.map((e) => e.toLowerCase())).toContain(kept[0]!.email);
    expect(await delivered('waiting@gmail.com', 'We will email you when One Inbox Waiting is back')).toHaveLength(1);

    // Another inbox at the same domain is a request of its own.
    expect((await askWhenBack(id, 'Some.One+books@googlemail.com')).status).toBe(200);
    expect((await askWhenBack(id, 'someone@gmail.com')).status).toBe(200);
    expect((await waiting(id)).map((r) => r.inbox)).toEqual(['waiting@gmail.com', 'someone@gmail.com']);

    await setShelf(id, 4);
    const back = await delivered('waiting@gmail.com', 'One Inbox Waiting is back in stock');
    expect(back).toHaveLength(1);
    expect(back[0]!.rcptTo).toEqual([kept[0]!.email]);
    expect(await delivered('someone@gmail.com', 'One Inbox Waiting is back in stock')).toHaveLength(1);
    expect(await waiting(id)).toEqual([]);
  });

  it(`ask for fifty books: ${BACK_IN_STOCK_LIMITS.perAddress} requests kept and confirmed, the rest refused and kept nowhere`, async () => {
    const books: number[] = [];
    for (let i = 0; i < 50; i++) books.push(await comingSoon(`Many Books ${i}`));
    const emails = spellings('manybooks');
    const answers = await inBatches(emails.map((email, i) => () => askWhenBack(books[i]!, email)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(BACK_IN_STOCK_LIMITS.perAddress);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([]);
    expect(await shop.db('backInStockRequests').where({ inbox: 'manybooks@gmail.com' })).toHaveLength(BACK_IN_STOCK_LIMITS.perAddress);
    expect(await delivered('manybooks@gmail.com', 'We will email you when Many Books')).toHaveLength(BACK_IN_STOCK_LIMITS.perAddress);
  });

  it('a cancel link sent to one spelling cancels the inbox’s request', async () => {
    const id = await comingSoon('Cancelled By Inbox');
    expect((await askWhenBack(id, 'c.anceller+first@gmail.com')).status).toBe(200);
    const [confirmation] = await delivered('canceller@gmail.com', 'We will email you when Cancelled By Inbox is back');
    const link = /\/notify\/unsubscribe\?token=[A-Za-z0-9_.-]+/.exec(confirmation!.raw)![0];
    await supertest(shop.app).post(link).set('Sec-Fetch-Site', 'same-origin').type('form').send({}).expect(200);
    expect(await waiting(id)).toEqual([]);
  });
});

describe('security mails to one inbox under several accounts', () => {
  it('send one reset link per inbox per interval, whichever spelling asks', async () => {
    const emails = ['r.esetter+1@gmail.com', 'resetter+2@gmail.com', 'RESETTER@googlemail.com'];
    for (const email of emails) expect((await signUp(email)).status).toBe(201);
    for (const email of emails) {
      const agent = shop.browser();
      const token = await csrfTokenFor(agent);
      const res = await agent
        .post('/api/auth/reset-password')
        .set('x-csrf-token', token)
        .set('x-forwarded-for', freshClient())
        .send({ email });
      expect(res.status).toBe(200);
    }
    expect(await delivered('resetter@gmail.com', 'Reset your Little Lantern Books password')).toHaveLength(1);
  });

  it('send one temporary password per inbox per interval, however many of its accounts are guessed at', async () => {
    const emails = ['l.ocked+1@gmail.com', 'locked+2@googlemail.com'];
    for (const email of emails) {
      expect((await signUp(email)).status).toBe(201);
      for (let i = 0; i < 5; i++) {
        const agent = shop.browser();
        const token = await csrfTokenFor(agent);
        const client = freshClient();
        const res = await agent
          .post('/api/auth/login')
          .set('x-csrf-token', token)
          .set('x-forwarded-for', client)
          .send({ email, password: `wrong-${i}` });
        expect(res.status).toBe(401);
      }
    }
    expect(await delivered('locked@gmail.com', 'We secured your account after failed sign-ins')).toHaveLength(1);
  });
});

describe('addresses at the edge of the pattern', () => {
  it('are answered with a readable 4xx or taken, never a 500, and a refused one keeps nothing', async () => {
    const id = await comingSoon('Edge Of The Pattern');
    const odd = [
      'victim@gmail.com.',
      '"victim"@gmail.com',
      '+@gmail.com',
      '.@gmail.com',
      'a@b@gmail.com',
      'victim+@gmail.com',
      `${'v.'.repeat(120)}@gmail.com`,
      `victim+${'x'.repeat(260)}@gmail.com`,
      'victim@gmail',
    ];
    for (const email of odd) {
      for (const res of [await contact(email), await signUp(email), await askWhenBack(id, email)]) {
        expect(res.status, `${email}: ${res.status}`).toBeLessThan(500);
        if (res.status >= 400 && res.status !== 409 && res.status !== 429) {
          const said: string = res.type === 'application/json' ? res.body.message : res.text;
          expect(said, email).toMatch(/valid email address|at most 254 characters|Please/);
        }
      }
    }
    for (const email of ['a@b@gmail.com', 'victim@gmail', `victim+${'x'.repeat(260)}@gmail.com`]) {
      expect(await shop.db('contactMessages').where({ email })).toHaveLength(0);
      expect(await shop.db('users').where({ email })).toHaveLength(0);
      expect(await shop.db('backInStockRequests').where({ email })).toHaveLength(0);
    }
  });
});

describe('the cap per recipient domain', () => {
  let capped: TestShop;
  beforeAll(async () => {
    capped = await buildTestShop({
      seed: false,
      env: { TRUST_PROXY: '1' },
      limits: { ...REAL_LIMITS, 'mail-domain': { points: 3, windowMs: 60 * 60_000 } },
    });
  });
  afterAll(() => capped.close());

  it('holds back mail to a domain past its share, and only that mail: the answers and what is kept stay the same', async () => {
    const post = async (email: string) => {
      const agent = capped.browser();
      const token = await csrfTokenFor(agent);
      return agent
        .post('/api/contact')
        .set('x-csrf-token', token)
        .set('x-forwarded-for', freshClient())
        .send({ firstName: 'Ada', lastName: 'Lee', email, currentMember: 'yes', subject: 'Hello', description: 'A question.' });
    };
    const emails = Array.from({ length: 5 }, (_, i) => `parent${i}@crowded.example`);
    for (const email of emails) expect((await post(email)).status).toBe(201);
    expect((await post('parent@quiet.example')).status).toBe(201);
    await flushMail(capped);
    expect(await capped.db('contactMessages').whereIn('email', emails)).toHaveLength(5);
    expect(await capped.db('outbox').where('toAddress', 'like', '%@crowded.example')).toHaveLength(3);
    expect(await capped.db('outbox').where({ toAddress: 'parent@quiet.example' })).toHaveLength(1);

    // A back-in-stock request from the crowded domain is kept, and mailed when the book is back.
    const [bookId] = await capped
      .db('books')
      .insert({ title: 'Crowded Out', author: 'A', description: 'D', price: 10, inStock: 0, publishedOn: '2026-01-01' });
    const asked = await supertest(capped.app)
      .post(`/books/${bookId}/notify`)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('X-Forwarded-For', freshClient())
      .type('form')
      .send({ _csrf: '', email: 'waiting@crowded.example' });
    expect(asked.status).toBe(200);
    expect(await capped.db('backInStockRequests').where({ bookId })).toHaveLength(1);
    await flushMail(capped);
    expect(await capped.db('outbox').where({ toAddress: 'waiting@crowded.example' })).toHaveLength(0);
  });
});
