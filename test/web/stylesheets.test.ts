import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_DIR, readManifest, STYLESHEETS } from '../../src/web/assets.ts';
import { STYLESHEET_KB } from '../../scripts/budgets.ts';
import { buildTestShop, type TestShop } from '../helpers/app.ts';
import { operatorBrowser } from '../helpers/operator.ts';

// The stylesheets as built (`npm run build`): the one every page loads stays small, and the
// admin pages' own rules reach the admin pages alone.

const built = (entry: string) => readFileSync(path.join(BUILD_DIR, readManifest()[entry]!.file), 'utf8');
const linked = (html: string) => [...html.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map((m) => m[1]);

describe('the stylesheet every page loads', () => {
  // Pico's base and the shop's own rules, refusal summaries and field messages included: one
  // round trip's worth on a phone's first visit, then cached for a year.
  it(`is at most ${STYLESHEET_KB} KB gzipped (gzip -9), as npm run budget holds it`, () => {
    expect(gzipSync(built(STYLESHEETS.shop), { level: 9 }).length).toBeLessThanOrEqual(STYLESHEET_KB * 1024);
  });

  it('has no dark colour scheme: the layout forces the light one', () => {
    const css = built(STYLESHEETS.shop);
    expect(css).not.toMatch(/prefers-color-scheme:\s*dark/);
    // Pico's dark scheme, automatic or forced, declares itself with this.
    expect(css).not.toMatch(/color-scheme:\s*dark/);
    expect(css).toMatch(/color-scheme:\s*light/);
  });

  it("keeps Pico's states of what the pages use: links, buttons, fields, tooltips and dialogs", () => {
    const css = built(STYLESHEETS.shop);
    for (const selector of [
      ':where(a:not([role=button])):is([aria-current]:not([aria-current=false]),:hover,:active,:focus)',
      ':where(a:not([role=button])):focus-visible',
      'button:is(:hover,:active,:focus)',
      '[aria-invalid=true]',
      '[data-tooltip]:is(:hover,:focus-visible):after',
      'dialog>article',
      '[role=group]',
      '[aria-busy=true]',
    ]) {
      expect(css, selector).toContain(selector);
    }
  });

  it('leaves out the parts of Pico for what no page has (islands/pico/unused-parts.ts)', () => {
    const css = built(STYLESHEETS.shop);
    for (const part of [
      /(^|[}>,])(hr|blockquote|mark|abbr|hgroup|sub|sup|ins|del|h4|progress)[{,:[]/,
      /\[aria-invalid=false\]/,
      /\[dir=rtl\]/,
      /\.modal-is-(open|opening|closing)/,
      /:indeterminate/,
      /(^|[},])\[type=reset\][{:.[]/,
      /--pico-icon-(date|time|search|minus):/,
    ]) {
      expect(css, String(part)).not.toMatch(part);
    }
  });

  it("keeps a list naming a left-out part beside used ones: the header's links keep their spacing", () => {
    const css = built(STYLESHEETS.shop);
    expect(css).toContain('nav li :where(a,[role=link])');
    expect(css).toContain(':where(audio,canvas,iframe,img,svg,video)');
  });

  it("drops Pico's colours, font and corners where the theme sets its own: they would never count", () => {
    const css = built(STYLESHEETS.shop);
    for (const pico of [
      '--pico-primary:#0172ad',
      '--pico-font-family-sans-serif:system-ui',
      '--pico-border-radius:.25rem',
      '--pico-h1-color:#',
    ]) {
      expect(css, pico).not.toContain(pico);
    }
    for (const theme of ['--pico-primary:var(--ll-teal)', '--pico-font-family-sans-serif:"Nunito"', '--pico-border-radius:.75rem']) {
      expect(css, theme).toContain(theme);
    }
  });

  it("leaves the admin fields' icons to the admin stylesheet", () => {
    const admin = built(STYLESHEETS.admin);
    for (const icon of ['--pico-icon-date:', '--pico-icon-time:', '--pico-icon-search:']) expect(admin, icon).toContain(icon);
  });

  it('keeps the custom properties the shop theme relies on', () => {
    const css = built(STYLESHEETS.shop);
    const theme = readFileSync('islands/theme.css', 'utf8');
    const used = new Set([...theme.matchAll(/var\((--pico-[\w-]+)/g)].map((m) => m[1]!));
    const defined = new Set([...css.matchAll(/(--pico-[\w-]+):/g)].map((m) => m[1]!));
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
  });
});

describe('which pages load which stylesheet', () => {
  let shop: TestShop;
  const shopSheet = () => readManifest()[STYLESHEETS.shop]!.file;
  const adminSheet = () => readManifest()[STYLESHEETS.admin]!.file;
  beforeAll(async () => {
    shop = await buildTestShop();
  });
  afterAll(async () => {
    await shop.close();
  });

  it.each(['/', '/books', '/books/1', '/login', '/cart', '/no-such-page'])('%s: the shop stylesheet, not the admin one', async (page) => {
    const res = await shop.browser().get(page);
    expect(linked(res.text)).toContain(shopSheet());
    expect(linked(res.text)).not.toContain(adminSheet());
  });

  it.each(['/admin', '/admin/orders', '/admin/to-pack', '/admin/inbox'])('%s: both', async (page) => {
    const { agent } = await operatorBrowser(shop);
    const res = await agent.get(page).expect(200);
    expect(linked(res.text)).toEqual(expect.arrayContaining([shopSheet(), adminSheet()]));
  });
});
