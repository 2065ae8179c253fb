import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { fieldMessage, postAdminForm } from '../../helpers/book-admin.ts';
import { Buyer } from '../../helpers/checkout.ts';
import { codeRow } from '../../helpers/discounts.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { DISCOUNT_MESSAGES } from '../../../src/features/discounts/discount.rules.ts';

let shop: TestShop;
let agent: supertest.Agent;
let operatorId: number;

beforeAll(async () => {
  shop = await buildTestShop();
  ({
    agent,
    operator: { id: operatorId },
  } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
});

const fields = (overrides: Record<string, string> = {}) => ({
  code: 'spring-10',
  kind: 'percentage',
  percent: '10',
  amount: '',
  startsOn: '2026-03-01',
  endsOn: '2026-03-31',
  maxUses: '100',
  minimumSubtotal: '20.00',
  active: 'on',
  ...overrides,
});
const create = (overrides: Record<string, string> = {}) =>
  postAdminForm(agent, '/admin/discounts/new', '/admin/discounts', fields(overrides));
const count = async () => Number(((await shop.db('discountCodes').count({ n: '*' }).first()) as { n: number | string }).n);

describe('the operator makes and changes discount codes', () => {
  it('saves a code in capitals, audited, and lists it with its kind, dates, uses and minimum', async () => {
    const res = await create();
    expect(res.status).toBe(303);
    expect(await codeRow(shop, 'SPRING-10')).toMatchObject({
      kind: 'percentage',
      percent: 10,
      amount: 0,
      minimumSubtotal: 20_00,
      startsOn: '2026-03-01',
      endsOn: '2026-03-31',
      maxUses: 100,
    });
    const audit = await shop.db('auditLog').where({ action: 'discount.created' }).first();
    expect(audit.actorId).toBe(operatorId);
    const list = await agent.get('/admin/discounts').expect(200);
    for (const shown of ['SPRING-10', 'Percentage: 10%', 'March 1, 2026', 'March 31, 2026', '0 / 100', '$20.00'])
      expect(list.text).toContain(shown);
    // Its last day is past: listed as what it is today, not as switched on.
    expect(list.text).toContain('data-code-status="expired">Expired</span>');
  });

  it.each([
    ['percent', { percent: '0' }, 'The percentage must be a whole number from 1 to 100.'],
    ['percent', { percent: '101' }, 'The percentage must be a whole number from 1 to 100.'],
    ['amount', { kind: 'fixed', amount: '' }, 'Please enter the amount the code takes off, like 5.00.'],
    ['endsOn', { startsOn: '2026-03-10', endsOn: '2026-03-09' }, 'The end date must not be before the start date.'],
    ['code', { code: 'spring 10' }, 'A code has only letters, digits and hyphens.'],
    ['maxUses', { maxUses: '0' }, 'The maximum number of uses must be at least 1.'],
  ])('refuses a bad %s (400, the message beside it, nothing saved)', async (field, overrides, message) => {
    const before = await count();
    const res = await create({ code: 'BAD-ONE', ...overrides });
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, field, 'discount')).toBe(message);
    expect(await count()).toBe(before);
  });

  it('refuses a code that exists, in any case (400, nothing saved)', async () => {
    await create({ code: 'TWICE' });
    const before = await count();
    const res = await create({ code: 'twice' });
    expect(res.status).toBe(400);
    expect(fieldMessage(res.text, 'code', 'discount')).toBe('Another discount already has this code.');
    expect(await count()).toBe(before);
  });

  it('switching a code off: checkout refuses it with its message', async () => {
    await create({ code: 'SWITCH', startsOn: '', endsOn: '', minimumSubtotal: '' });
    const { id } = await codeRow(shop, 'SWITCH');
    const off = await postAdminForm(
      agent,
      `/admin/discounts/${id}/edit`,
      `/admin/discounts/${id}`,
      fields({ code: 'SWITCH', startsOn: '', endsOn: '', minimumSubtotal: '', active: '' }),
    );
    expect(off.status).toBe(303);
    expect(Boolean((await codeRow(shop, 'SWITCH')).active)).toBe(false);
    expect(await shop.db('auditLog').where({ action: 'discount.edited' })).toHaveLength(1);

    const parent = new Buyer(shop);
    await parent.add(1, 1);
    const res = await parent.send('post', '/checkout/discount', { code: 'switch' });
    expect(res.status).toBe(400);
    expect(res.text).toContain(DISCOUNT_MESSAGES.switchedOff);
  });

  it('is for operators only', async () => {
    const parent = new Buyer(shop);
    expect((await parent.signUp(parent.parent)).status).toBeLessThan(300);
    expect((await parent.get('/admin/discounts')).status).toBe(404);
  });
});
