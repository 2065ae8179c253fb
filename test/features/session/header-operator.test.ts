import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { newParent } from '../../helpers/accounts.ts';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';
import { operatorBrowser } from '../../helpers/operator.ts';

// The site header links an operator to the back office and says who they are; a parent and a
// visitor never see that link, even on a page kept for visitors after an operator has opened it.

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

const PAGES = ['/', '/books', '/books/1', '/about', '/contact'];

/** The site header's markup alone: the dashboard and the admin pages have links of their own. */
async function headerOf(agent: supertest.Agent, path: string): Promise<string> {
  const res = await agent.get(path).expect(200);
  const header = /<header class="site-header[^"]*">[\s\S]*?<\/header>/.exec(res.text)?.[0];
  if (!header) throw new Error(`${path} has no site header`);
  return header;
}

async function signedUpParent(): Promise<{ agent: supertest.Agent; firstName: string }> {
  const agent = shop.browser();
  const parent = newParent();
  const page = await agent.get('/login?tab=signup');
  const res = await agent
    .post('/signup')
    .type('form')
    .send({ _csrf: formToken(page.text), ...parent, confirmPassword: parent.password });
  expect(res.status).toBe(303);
  return { agent, firstName: parent.firstName };
}

describe("the header's way to the back office", () => {
  it('shows a signed-in operator an Admin link and a greeting that says they run the shop, on every page', async () => {
    const { agent } = await operatorBrowser(shop);
    for (const path of PAGES) {
      const header = await headerOf(agent, path);
      expect(header, path).toMatch(/<a href="\/admin" class="admin-link">Admin<\/a>/);
      expect(header, path).toMatch(/<a href="\/dashboard" class="greeting"><span>Hello, Olive!<\/span> <small>Shop operator<\/small><\/a>/);
    }
  });

  it('never shows a parent the Admin link, and greets them as before', async () => {
    const { agent, firstName } = await signedUpParent();
    for (const path of [...PAGES, '/dashboard']) {
      const header = await headerOf(agent, path);
      expect(header, path).toContain(`Hello, ${firstName}!`);
      expect(header, path).not.toContain('href="/admin"');
      expect(header, path).not.toContain('>Admin<');
      expect(header, path).not.toContain('Shop operator');
    }
  });

  it('never shows a visitor the Admin link, even on pages an operator has just opened', async () => {
    const { agent: operator } = await operatorBrowser(shop);
    for (const path of PAGES) expect(await headerOf(operator, path)).toContain('href="/admin"');
    for (const path of PAGES) {
      // Twice: the second answer may come from the pages kept for visitors.
      for (const visit of [1, 2]) {
        const header = await headerOf(shop.browser(), path);
        expect(header, `${path}, visit ${visit}`).toContain('Parent Login');
        expect(header, `${path}, visit ${visit}`).not.toContain('href="/admin"');
        expect(header, `${path}, visit ${visit}`).not.toContain('Shop operator');
      }
    }
  });
});
