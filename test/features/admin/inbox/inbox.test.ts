import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, formToken, type TestShop } from '../../../helpers/app.ts';
import { textOf } from '../../../helpers/admin-fixtures.ts';
import { operatorBrowser, type Operator } from '../../../helpers/operator.ts';

let shop: TestShop;
let agent: supertest.Agent;
let operator: Operator;
const ids: Record<string, number> = {};

async function insertMessage(
  db: TestShop['db'],
  fields: { subject: string; createdAt: Date; email?: string; description?: string; currentMember?: boolean; firstName?: string },
): Promise<number> {
  const [id] = await db('contactMessages').insert({
    firstName: fields.firstName ?? 'Maya',
    lastName: 'Lee',
    email: fields.email ?? 'maya.lee@example.com',
    currentMember: fields.currentMember ?? false,
    subject: fields.subject,
    description: fields.description ?? 'Hello from a parent.',
    createdAt: fields.createdAt,
  });
  return typeof id === 'object' ? Number((id as { id: number }).id) : Number(id);
}

beforeAll(async () => {
  shop = await buildTestShop();
  ids.oldNormal = await insertMessage(shop.db, {
    subject: 'Which book for a 4-year-old?',
    createdAt: new Date('2026-11-10T10:00:00Z'),
    currentMember: true,
  });
  ids.oldUrgent = await insertMessage(shop.db, { subject: 'urgent: wrong book arrived', createdAt: new Date('2026-11-09T10:00:00Z') });
  ids.newNormal = await insertMessage(shop.db, {
    subject: "Where's my order? 50% & more",
    email: 'o.brien+kids@example.com',
    firstName: 'Aoife',
    createdAt: new Date('2026-11-21T10:00:00Z'),
    description: `${'We ordered three books for our twins and would love to know more. '.repeat(8)}THE END`,
  });
  ids.newUrgent = await insertMessage(shop.db, { subject: 'Gift needed by Friday - Urgent', createdAt: new Date('2026-11-20T10:00:00Z') });
  ({ agent, operator } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
});

function listed(html: string): number[] {
  return [...html.matchAll(/id="message-(\d+)"/g)].map((m) => Number(m[1]));
}

function messageHtml(html: string, id: number): string {
  const start = html.indexOf(`id="message-${id}"`);
  return html.slice(start, html.indexOf('</li>', html.indexOf('inbox-actions', start)));
}

async function mark(id: number | string, action: 'read' | 'unread', body: Record<string, string> = {}) {
  const token = formToken((await agent.get('/admin/inbox').expect(200)).text);
  return agent
    .post(`/admin/inbox/${id}/${action}`)
    .type('form')
    .send({ _csrf: token, ...body });
}

async function readAt(id: number): Promise<unknown> {
  return (await shop.db('contactMessages').where({ id }).first()).readAt;
}

async function auditRows(id: number) {
  return shop.db('auditLog').where({ contactMessageId: id }).orderBy('id');
}

describe('GET /admin/inbox', () => {
  it('lists URGENT subjects first, then the newest first', async () => {
    const res = await agent.get('/admin/inbox').expect(200);
    expect(listed(res.text)).toEqual([ids.newUrgent, ids.oldUrgent, ids.newNormal, ids.oldNormal]);
    expect(messageHtml(res.text, ids.oldUrgent!)).toContain('class="status status-red">Urgent<');
    expect(messageHtml(res.text, ids.newNormal!)).not.toContain('>Urgent<');
  });

  it('shows who wrote, whether they are a member, the subject, the date and the message', async () => {
    const res = await agent.get('/admin/inbox').expect(200);
    const member = textOf(messageHtml(res.text, ids.oldNormal!));
    expect(member).toContain('Which book for a 4-year-old?');
    expect(member).toContain('From Maya Lee');
    expect(member).toContain('Email maya.lee@example.com');
    expect(member).toContain('Member Yes');
    expect(member).toContain('Received November 10, 2026');
    expect(member).toContain('Hello from a parent.');
    expect(textOf(messageHtml(res.text, ids.oldUrgent!))).toContain('Member No');
  });

  it('folds a long message behind <details>', async () => {
    const res = await agent.get('/admin/inbox').expect(200);
    const long = messageHtml(res.text, ids.newNormal!);
    expect(long).toMatch(/<details>\s*<summary>Read the whole message<\/summary>\s*<p class="message-text">We ordered[^<]*THE END<\/p>/);
    expect(messageHtml(res.text, ids.oldNormal!)).not.toContain('<details>');
  });

  it('offers a Reply link with the address and "Re: subject" encoded', async () => {
    const res = await agent.get('/admin/inbox').expect(200);
    const href = /<a href="(mailto:[^"]+)"/.exec(messageHtml(res.text, ids.newNormal!))![1]!.replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    expect(href).toBe("mailto:o.brien%2Bkids@example.com?subject=Re%3A%20Where's%20my%20order%3F%2050%25%20%26%20more");
  });

  it('marks unread messages in words and weight, and counts them in the admin navigation', async () => {
    const res = await agent.get('/admin/inbox').expect(200);
    expect(messageHtml(res.text, ids.oldNormal!)).toMatch(/class="inbox-message unread"/);
    expect(messageHtml(res.text, ids.oldNormal!)).toContain('>Unread<');
    expect(res.text).toMatch(/Inbox <span class="nav-count">4<span class="visually-hidden"> unread<\/span><\/span>/);
    const orders = await agent.get('/admin/orders').expect(200);
    expect(orders.text).toContain('<span class="nav-count">4<');
  });
});

describe('POST /admin/inbox/:id/read and /unread', () => {
  it('marks a message read, then unread again, writing each change to the audit log', async () => {
    const id = ids.oldNormal!;
    const read = await mark(id, 'read', { page: '1' });
    expect(read.status).toBe(303);
    expect(read.headers.location).toBe('/admin/inbox');
    expect(await readAt(id)).not.toBeNull();

    const page = await agent.get('/admin/inbox').expect(200);
    expect(textOf(page.text)).toContain('Marked as read');
    expect(messageHtml(page.text, id)).not.toContain('>Unread<');
    expect(messageHtml(page.text, id)).toContain('Mark as unread');
    expect(page.text).toContain('<span class="nav-count">3<');

    expect((await mark(id, 'unread')).status).toBe(303);
    expect(await readAt(id)).toBeNull();

    const rows = await auditRows(id);
    expect(rows.map((r) => r.action)).toEqual(['message.read', 'message.unread']);
    expect(rows.every((r) => Number(r.actorId) === operator.id && r.orderId === null)).toBe(true);
    expect(JSON.parse(rows[0].beforeJson)).toEqual({ readAt: null });
    expect(JSON.parse(rows[0].afterJson).readAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(JSON.parse(rows[1].beforeJson)).toEqual(JSON.parse(rows[0].afterJson));
    expect(JSON.parse(rows[1].afterJson)).toEqual({ readAt: null });
  });

  it('changes nothing and logs nothing when the message is already in that state', async () => {
    const id = ids.oldUrgent!;
    await mark(id, 'read');
    const first = await readAt(id);
    expect((await mark(id, 'read')).status).toBe(303);
    expect(await readAt(id)).toEqual(first);
    expect(await auditRows(id)).toHaveLength(1);
  });

  it('logs one change when two tabs mark the same message read at once', async () => {
    const id = ids.newUrgent!;
    const token = formToken((await agent.get('/admin/inbox').expect(200)).text);
    const both = await Promise.all([1, 2].map(() => agent.post(`/admin/inbox/${id}/read`).type('form').send({ _csrf: token })));
    expect(both.map((r) => r.status)).toEqual([303, 303]);
    expect(await readAt(id)).not.toBeNull();
    expect((await auditRows(id)).map((r) => r.action)).toEqual(['message.read']);
    await mark(id, 'unread');
  });

  it('keeps the page the operator was on', async () => {
    const res = await mark(ids.newUrgent!, 'read', { page: '3' });
    expect(res.headers.location).toBe('/admin/inbox?page=3');
    await mark(ids.newUrgent!, 'unread');
  });

  it.each(['999999', 'abc', '0'])('answers 404 for message %s', async (id) => {
    expect((await mark(id, 'read')).status).toBe(404);
  });

  it('refuses a bad page number and changes nothing', async () => {
    const res = await mark(ids.newNormal!, 'read', { page: 'many' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('The page must be a number.');
    expect(await readAt(ids.newNormal!)).toBeNull();
  });

  it('refuses a form without its CSRF token and changes nothing', async () => {
    const res = await agent.post(`/admin/inbox/${ids.newNormal}/read`).type('form').send({});
    expect(res.status).toBe(403);
    expect(await readAt(ids.newNormal!)).toBeNull();
  });
});

describe('inbox pages', () => {
  it('pages 25 at a time, and a page past the end shows the last', async () => {
    const busy = await buildTestShop({ seed: false });
    try {
      const made: number[] = [];
      for (let i = 0; i < 27; i++)
        made.push(await insertMessage(busy.db, { subject: `Question ${i}`, createdAt: new Date(Date.UTC(2026, 10, 1, i)) }));
      const { agent: operatorAgent } = await operatorBrowser(busy);
      const first = await operatorAgent.get('/admin/inbox').expect(200);
      expect(listed(first.text)).toEqual([...made].reverse().slice(0, 25));
      expect(first.text).toContain('<a href="/admin/inbox?page=2" rel="next">Next</a>');
      const last = await operatorAgent.get('/admin/inbox?page=40').expect(200);
      expect(listed(last.text)).toEqual([made[1], made[0]]);
      expect(last.text).toContain('<a href="/admin/inbox" rel="prev">Previous</a>');
      const bad = await operatorAgent.get('/admin/inbox?page=-2').expect(200);
      expect(bad.text).toContain('The page must be 1 or more. Showing the first page instead.');
      expect(listed(bad.text)).toEqual([...made].reverse().slice(0, 25));
    } finally {
      await busy.close();
    }
  });
});
