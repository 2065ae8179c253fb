import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checklistFirst } from '../../../../src/features/admin/status/system-status.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';

// On a phone the /admin home is long (cards, charts, tables): the pre-launch checklist leads it
// while there is launching left to do, and moves below the numbers once the shop is live.
const item = (done: boolean) => ({ label: 'Emails are sent through your mail server.', settings: ['SMTP_URL'], done });

describe('where the checklist goes', () => {
  it('first in test mode, or while anything on it is left to do; after the numbers once live and done', () => {
    expect(checklistFirst({ testMode: true, checklist: [item(true), item(true)] })).toBe(true);
    expect(checklistFirst({ testMode: false, checklist: [item(true), item(false)] })).toBe(true);
    expect(checklistFirst({ testMode: false, checklist: [item(true), item(true)] })).toBe(false);
  });
});

describe('on the /admin home', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await buildTestShop();
  });
  afterAll(async () => {
    await shop.close();
  });

  const at = (html: string, marker: string) => {
    const i = html.indexOf(marker);
    expect(i, marker).toBeGreaterThan(-1);
    return i;
  };

  it('in test mode (the sandbox): the checklist comes before the service cards and the numbers', async () => {
    const { agent } = await operatorBrowser(shop);
    const html = (await agent.get('/admin').expect(200)).text;
    const checklist = at(html, 'id="checklist-heading"');
    expect(checklist).toBeLessThan(at(html, '<h2>Payment system</h2>'));
    expect(checklist).toBeLessThan(at(html, 'id="numbers-heading"'));
    expect(checklist).toBeGreaterThan(at(html, '<h1>Shop status</h1>'));
    expect(html).toMatch(/class="checklist-progress"><strong>\d of 7<\/strong> done\. The shop takes test payments only/);
  });

  it('live with every item done: after the numbers, without the test cards', async () => {
    const status = shop.services.systemStatus;
    const real = await status.check();
    const spy = vi.spyOn(status, 'check').mockResolvedValue({
      ...real,
      payments: { ...real.payments, isLive: true },
      testMode: false,
      checklist: real.checklist.map((i) => ({ ...i, done: true })),
    });
    try {
      const { agent } = await operatorBrowser(shop);
      const html = (await agent.get('/admin').expect(200)).text;
      expect(at(html, 'id="checklist-heading"')).toBeGreaterThan(at(html, 'id="best-sellers-heading"'));
      expect(html).toContain('<strong>7 of 7</strong> done.');
      expect(html).not.toContain('id="cards-heading"');
    } finally {
      spy.mockRestore();
    }
  });
});
