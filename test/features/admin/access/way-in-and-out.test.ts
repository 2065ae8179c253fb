import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, formToken, type TestShop } from '../../../helpers/app.ts';
import { ApiBrowser, newParent } from '../../../helpers/accounts.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';

// An operator's way in and out of the back office: the dashboard names an operator as one and
// links to /admin; every admin page's menu ends with Log Out, a form that ends the session.

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(async () => {
  await shop.close();
});

/** The admin menu of a page: the nav labelled "Shop admin". */
const adminMenu = (html: string) => /<nav class="admin-nav" aria-label="Shop admin">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';

describe('the dashboard', () => {
  it("labels an operator as the shop's operator and links to the shop admin", async () => {
    const { agent } = await operatorBrowser(shop);
    const html = (await agent.get('/dashboard').expect(200)).text;
    expect(html).toMatch(/<p class="lead">Shop operator &middot; /);
    expect(html).not.toContain('Parent/Guardian');
    expect(html).toMatch(/<a href="\/admin" role="button">Go to the shop admin<\/a>/);
  });

  it('still labels a parent Parent/Guardian, with no way to the shop admin', async () => {
    const parent = new ApiBrowser(shop.browser());
    expect((await parent.signUp(newParent())).status).toBeLessThan(300);
    const { agent } = parent;
    const html = (await agent.get('/dashboard').expect(200)).text;
    expect(html).toMatch(/<p class="lead">Parent\/Guardian &middot; /);
    expect(html).not.toContain('href="/admin"');
  });
});

describe('Log Out in the admin menu', () => {
  it('is on every admin page, as a form posting to /logout with the page token', async () => {
    const { agent } = await operatorBrowser(shop);
    for (const path of [
      '/admin',
      '/admin/orders',
      '/admin/to-pack',
      '/admin/preorders',
      '/admin/inbox',
      '/admin/books',
      '/admin/books/new',
      '/admin/discounts',
      '/admin/settings',
    ]) {
      const html = (await agent.get(path).expect(200)).text;
      const menu = adminMenu(html);
      expect(menu, path).toMatch(
        /<form method="post" action="\/logout">\s*<input type="hidden" name="_csrf" value="[^"]+">\s*<button type="submit"[^>]*>Log Out<\/button>/,
      );
    }
  });

  it('ends the session: /admin asks for a sign-in again', async () => {
    const { agent } = await operatorBrowser(shop);
    const page = await agent.get('/admin/orders').expect(200);
    const res = await agent
      .post('/logout')
      .type('form')
      .send({ _csrf: formToken(adminMenu(page.text)) });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/?loggedout=1');
    const home = await agent.get('/?loggedout=1').expect(200);
    expect(home.text).toContain('Logged Out');
    const again = await agent.get('/admin').expect(303);
    expect(again.headers.location).toBe('/login');
  });

  it('refuses a post without the page token, and the operator stays signed in', async () => {
    const { agent } = await operatorBrowser(shop);
    const res = await agent.post('/logout').type('form').send({});
    expect(res.status).toBe(403);
    await agent.get('/admin').expect(200);
  });
});
