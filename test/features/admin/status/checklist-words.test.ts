import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSystemStatus } from '../../../../src/features/admin/status/system-status.ts';
import { createLogger } from '../../../../src/log.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';

// The publisher reads the pre-launch checklist and the status cards, not a developer: each
// checklist item is a sentence saying what is missing and what to do, the setting's name only
// in a small line beneath it for whoever hosts the shop, and no page prints a server path.

const SETTINGS = [
  ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'],
  ['STRIPE_WEBHOOK_SECRET'],
  ['SMTP_URL'],
  ['PUBLIC_URL'],
  ['SHOP_NOTIFY_EMAIL'],
  ['TRUST_PROXY'],
  [],
];
/** A setting's name as a developer writes it: capitals joined by underscores. */
const SETTING_NAME = /\b[A-Z]+(?:_[A-Z]+)+\b/;

interface Item {
  done: boolean;
  /** What the eye reads first: the item without its hidden words and without the host's line. */
  sentence: string;
  /** The small line beneath, for whoever hosts the shop ('' when there is none). */
  detail: string;
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

function checklistItems(html: string): Item[] {
  const list = /<ul class="checklist">([\s\S]*?)<\/ul>/.exec(html);
  expect(list, 'the checklist').not.toBeNull();
  return [...list![1]!.matchAll(/<li class="(done|todo)">([\s\S]*?)<\/li>/g)].map(([, state, body]) => {
    const detail = /<small class="muted">([\s\S]*?)<\/small>/.exec(body!)?.[1] ?? '';
    const shown = body!
      .replace(/<span aria-hidden="true">[^<]*<\/span>/, '')
      .replace(/<span class="visually-hidden">[^<]*<\/span>/, '')
      .replace(/<small class="muted">[\s\S]*?<\/small>/, '');
    return { done: state === 'done', sentence: text(shown), detail: text(detail) };
  });
}

function expectPlainSentences(items: Item[]): void {
  expect(items).toHaveLength(SETTINGS.length);
  items.forEach((item, i) => {
    // A sentence: several words, a full stop, and no setting's name among them.
    expect(item.sentence, `item ${i + 1}`).toMatch(/^[A-Z][^]*\.$/);
    expect(item.sentence.split(' ').length, item.sentence).toBeGreaterThanOrEqual(6);
    expect(item.sentence, item.sentence).not.toMatch(SETTING_NAME);
    // The setting's name sits beneath, for the host, and only there.
    for (const name of SETTINGS[i]!) expect(item.detail, item.sentence).toContain(name);
    if (!SETTINGS[i]!.length) expect(item.detail).toBe('');
    else expect(item.detail).toMatch(/^For your host: /);
  });
}

describe('the checklist on a new shop (test payments, nothing set)', () => {
  let shop: TestShop;
  let html: string;
  beforeAll(async () => {
    shop = await buildTestShop();
    const { agent } = await operatorBrowser(shop);
    html = (await agent.get('/admin').expect(200)).text;
  });
  afterAll(async () => {
    await shop.close();
  });

  it('says in a sentence what each missing thing means and whom to ask, the setting beneath', () => {
    const items = checklistItems(html);
    expectPlainSentences(items);
    expect(items.map((item) => item.done)).toEqual([false, false, false, false, false, false, true]);
    expect(items[0]!.sentence).toBe(
      'Card payments are in test mode: real cards cannot be charged yet. Ask whoever hosts the shop to add your Stripe live keys.',
    );
    for (const item of items.filter((i) => !i.done)) expect(item.sentence).toContain('Ask whoever hosts the shop to ');
  });

  it('catches an item that shows a bare setting name', () => {
    const bare = html.replace(
      /(<li class="todo"><span aria-hidden="true">○<\/span> <span>)[^<]*/,
      '$1Stripe live keys set (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY)',
    );
    expect(bare).not.toBe(html);
    expect(() => expectPlainSentences(checklistItems(bare))).toThrow();
  });

  it('never prints the folder the emails are saved in: the Email card says what happens, in words', () => {
    const mailFolder = `${shop.config.dataDir}/mail`;
    expect(html).not.toContain(shop.config.dataDir);
    expect(html).not.toContain(mailFolder);
    expect(html).toMatch(/<h2>Email system<\/h2>[\s\S]*?Emails are saved as files on the server, not sent\./);
  });
});

describe('the checklist once everything is set', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await buildTestShop();
  });
  afterAll(async () => {
    await shop.close();
  });

  it('says what each done item means for the shop, the setting still beneath', async () => {
    // The operator first: the last item asks whether one signs in with two-step sign-in.
    const { agent } = await operatorBrowser(shop);
    const ready = createSystemStatus({
      db: shop.db,
      payments: { name: 'stripe', isLive: true, check: async () => ({ ok: true }) },
      mailer: { smtpConfigured: true, verify: async () => ({ ok: true }) },
      config: {
        ...shop.config,
        STRIPE_SECRET_KEY: 'sk_live_lantern',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_lantern',
        STRIPE_WEBHOOK_SECRET: 'whsec_lantern',
        SMTP_URL: 'smtp://mail.littlelantern.example:587',
        PUBLIC_URL: 'https://littlelantern.example',
        SHOP_NOTIFY_EMAIL: 'orders@littlelantern.example',
        TRUST_PROXY: 1,
      },
      log: createLogger('silent'),
    });
    const report = await ready.check();
    const spy = vi.spyOn(shop.services.systemStatus, 'check').mockResolvedValue(report);
    try {
      const items = checklistItems((await agent.get('/admin').expect(200)).text);
      expectPlainSentences(items);
      expect(items.every((item) => item.done)).toBe(true);
      expect(items[0]!.sentence).toBe('Card payments are live: real cards are charged.');
      for (const item of items) expect(item.sentence).not.toContain('Ask whoever hosts the shop');
    } finally {
      spy.mockRestore();
    }
  });
});
