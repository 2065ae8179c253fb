import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { buildTestShop, formToken, type TestShop } from '../../helpers/app.ts';
import { addBook, postAdminForm } from '../../helpers/book-admin.ts';
import { stockOf } from '../../helpers/checkout.ts';
import { createOperator, operatorBrowser, signInWithPassword } from '../../helpers/operator.ts';
import { fieldProblem, summaryForms, summaryOf, toastsOf, valueOf } from '../../helpers/refusals.ts';

// The back office's other forms tell a refusal as the order page does: the form comes back (or,
// inside a list, the list comes back at its own address) with a summary linking to the field,
// the message beside it, what was typed still there, and no error toast.
let shop: TestShop;
let agent: supertest.Agent;

beforeAll(async () => {
  shop = await buildTestShop();
  ({ agent } = await operatorBrowser(shop));
});
afterAll(async () => {
  await shop.close();
});

describe('a row of the books list', () => {
  it("refused stock goes back to the same list, the summary above it and the message beside that book's field, as typed", async () => {
    const id = await addBook(agent, { isbn: '', title: 'Never Below Zero', stock: '5' });
    const res = await postAdminForm(agent, '/admin/books?page=1', `/admin/books/${id}/stock`, { stock: '-3', back: '/admin/books?page=1' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/admin/books?page=1');
    const list = (await agent.get('/admin/books?page=1').expect(200)).text;
    expect(summaryOf(list, `stock-${id}`)).toEqual({
      title: 'Stock not changed',
      items: ['Stock cannot be negative.'],
      links: [`#stock-${id}`],
    });
    expect(fieldProblem(list, `stock-${id}`)).toMatchObject({ invalid: true, message: 'Stock cannot be negative.' });
    expect(valueOf(list, `stock-${id}`)).toBe('-3');
    expect(toastsOf(list)).toEqual([]);
    expect(await stockOf(shop, id)).toBe(5);
    // Told once: the next visit shows the stock as it is.
    const again = (await agent.get('/admin/books?page=1').expect(200)).text;
    expect(summaryForms(again)).toEqual([]);
    expect(valueOf(again, `stock-${id}`)).toBe('5');
  });

  it("the low-stock view's threshold: refused, back to the view with the message beside its field", async () => {
    const res = await postAdminForm(agent, '/admin/books?stock=low', '/admin/settings', { threshold: 'lots', from: 'low-stock' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/admin/books?stock=low');
    const view = (await agent.get('/admin/books?stock=low').expect(200)).text;
    expect(summaryOf(view, 'threshold')).toEqual({
      title: 'The threshold was not changed',
      items: ['The threshold must be a whole number of copies, like 3.'],
      links: ['#low-threshold'],
    });
    expect(fieldProblem(view, 'low-threshold').invalid).toBe(true);
    expect(valueOf(view, 'low-threshold')).toBe('lots');
    expect(toastsOf(view)).toEqual([]);
  });
});

describe('forms of their own page', () => {
  it('settings: the form again with its summary, the field marked, as typed', async () => {
    const res = await postAdminForm(agent, '/admin/settings', '/admin/settings', { threshold: '-1', from: 'settings' });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text, 'settings')!.links).toEqual(['#setting-threshold']);
    expect(fieldProblem(res.text, 'setting-threshold')).toMatchObject({ invalid: true, message: 'The threshold cannot be negative.' });
    expect(fieldProblem(res.text, 'setting-threshold').tag).toContain('aria-describedby="setting-threshold-hint setting-threshold-error"');
    expect(valueOf(res.text, 'setting-threshold')).toBe('-1');
    expect(toastsOf(res.text)).toEqual([]);
  });

  it('the two-factor step: a wrong code is told in the form and beside the field, not in a toast', async () => {
    const operator = await createOperator(shop.db);
    const browser = shop.browser();
    await signInWithPassword(browser, operator);
    const page = await browser.get('/admin/two-factor').expect(200);
    const res = await browser
      .post('/admin/two-factor')
      .type('form')
      .send({ _csrf: formToken(page.text), code: '' });
    expect(res.status).toBe(400);
    expect(summaryOf(res.text, 'two-factor')).toEqual({ title: 'Sign-in not finished', items: ['Please enter a code.'], links: ['#code'] });
    expect(fieldProblem(res.text, 'code')).toMatchObject({ invalid: true, message: 'Please enter a code.' });
    expect(toastsOf(res.text)).toEqual([]);
  });
});

describe('a query value a list cannot use', () => {
  it('the books list: all books and the first page, with a notice, never an error page', async () => {
    const res = await agent.get('/admin/books?stock=lots&page=x').expect(200);
    expect(res.text).toContain('<p>Choose all books or low stock. Showing all books instead.</p>');
    expect(res.text).toContain('<p>The page must be a number. Showing the first page instead.</p>');
    expect(res.text).toContain('<h1>Books</h1>');
  });
});
