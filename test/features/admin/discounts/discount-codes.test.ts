import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcToday } from '../../../../src/features/discounts/discount.rules.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { postAdminForm } from '../../../helpers/book-admin.ts';
import { addCode } from '../../../helpers/discounts.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { fieldProblem, summaryOf, toastsOf, valueOf } from '../../../helpers/refusals.ts';

// The operator's discount codes: the form reports all its problems in one go, and the list and
// the confirmation say whether a code works today.
let shop: TestShop;
let agent: supertest.Agent;

beforeAll(async () => {
  shop = await buildTestShop();
  ({ agent } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
});

const DAY = 86_400_000;
const day = (offset: number) => utcToday(new Date(Date.now() + offset * DAY));

const fields = (overrides: Record<string, string> = {}) => ({
  code: 'AUTUMN',
  kind: 'percentage',
  percent: '10',
  amount: '',
  startsOn: '',
  endsOn: '',
  maxUses: '',
  minimumSubtotal: '',
  active: 'on',
  ...overrides,
});

async function save(overrides: Record<string, string>): Promise<supertest.Response> {
  return postAdminForm(agent, '/admin/discounts/new', '/admin/discounts', fields(overrides));
}

describe('the discount form', () => {
  it('reports every problem in one submit: the code, the uses, the percentage and the dates, in the order of the form', async () => {
    const res = await save({ code: 'bad code!', percent: '150', maxUses: 'abc', startsOn: day(10), endsOn: day(1) });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text, 'discount')).toEqual({
      title: 'The code was not saved',
      items: [
        'A code has only letters, digits and hyphens.',
        'The percentage must be a whole number from 1 to 100.',
        'The end date must not be before the start date.',
        'The maximum number of uses must be a whole number, like 100, or empty for no limit.',
      ],
      links: ['#discount-code', '#discount-percent', '#discount-endsOn', '#discount-maxUses'],
    });
    for (const id of ['discount-code', 'discount-percent', 'discount-endsOn', 'discount-maxUses'])
      expect(fieldProblem(res.text, id).invalid, id).toBe(true);
    expect(fieldProblem(res.text, 'discount-startsOn').invalid).toBe(false);
    // As typed, for putting right.
    expect(valueOf(res.text, 'discount-code')).toBe('bad code!');
    expect(valueOf(res.text, 'discount-maxUses')).toBe('abc');
    expect(toastsOf(res.text)).toEqual([]);
  });

  it('asks a fixed-amount code for its amount alongside a bad minimum', async () => {
    const res = await save({ code: 'FIXED-1', kind: 'fixed', percent: '', amount: '', minimumSubtotal: 'ten' });
    expect(summaryOf(res.text, 'discount')!.links).toEqual(['#discount-amount', '#discount-minimumSubtotal']);
  });
});

describe("a code's state, in the list and in the confirmation", () => {
  const cases = [
    ['READY-NOW', {}, 'on', 'On', 'READY-NOW is ready to use.'],
    ['NOT-YET', { startsOn: day(3) }, 'not_started', 'Not started', 'NOT-YET is saved. Parents can use it from'],
    ['TOO-LATE', { startsOn: day(-10), endsOn: day(-1) }, 'expired', 'Expired', 'TOO-LATE is saved but has expired: its last day was'],
    ['SWITCHED', { active: '' }, 'off', 'Off', 'SWITCHED is saved but switched off'],
  ] as const;

  it.each(cases)('%s: the confirmation and the list agree', async (code, overrides, status, label, sentence) => {
    const res = await save({ code, ...overrides });
    expect(res.status).toBe(303);
    const list = (await agent.get(res.headers.location!).expect(200)).text;
    const [toast] = toastsOf(list);
    expect(toast).toMatchObject({ variant: 'success', title: 'Code saved' });
    expect(toast!.text.startsWith(sentence)).toBe(true);
    if (status !== 'on') expect(toast!.text).not.toContain('ready to use');
    const row = new RegExp(`>${code}</a></th>[\\s\\S]*?data-code-status="([a-z_]+)">([^<]+)<`).exec(list);
    expect([row?.[1], row?.[2]]).toEqual([status, label]);
  });

  it('lists a code whose uses ran out as used up', async () => {
    await addCode(shop, { code: 'ALL-GONE', kind: 'free_shipping', maxUses: 3, uses: 3 });
    const list = (await agent.get('/admin/discounts').expect(200)).text;
    expect(/>ALL-GONE<\/a><\/th>[\s\S]*?data-code-status="([a-z_]+)">([^<]+)</.exec(list)?.slice(1)).toEqual(['used_up', 'Used up']);
  });
});
