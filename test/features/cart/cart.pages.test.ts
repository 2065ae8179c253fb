import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { bumpCatalogueVersion } from '../../../src/features/catalog/catalogue-version.ts';
import { Book } from '../../../src/models/Book.ts';
import { buildTestShop, csrfTokenFor, type TestShop } from '../../helpers/app.ts';

// The cart without JavaScript: a refused change (sold out, too many copies) comes back to the
// page as every form's refusal does (src/web/form-problems.ts), never as an error toast: the
// summary above the list, focused on arrival, linked to the line's quantity; the reason beside
// that quantity; what was typed kept; drawn once. An Add to Cart refused from a book page or a
// catalogue card is told beside the book page's quantity.
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(() => shop.close());

const PLENTY = 1;
const FEW = 2;
/** Changes a book as the back office does: the book pages, drawn from the catalogue's snapshot, see it. */
async function setBook(id: number, patch: { inStock?: number; hidden?: boolean }): Promise<void> {
  await Book.query(shop.db).findById(id).patch(patch);
  await bumpCatalogueVersion(shop.db);
}
beforeEach(async () => {
  await setBook(PLENTY, { inStock: 20, hidden: false });
  await setBook(FEW, { inStock: 3, hidden: false });
});

async function visitorWith(lines: Array<[number, number]>): Promise<{ agent: supertest.Agent; token: string }> {
  const agent = shop.browser();
  const token = await csrfTokenFor(agent);
  for (const [bookId, quantity] of lines) await agent.post('/api/cart').set('x-csrf-token', token).send({ bookId, quantity }).expect(201);
  return { agent, token };
}

const titleOf = async (id: number) => (await Book.query(shop.db).findById(id))!.title;

/** The page has no error toast: a toast only ever confirms what was done. */
function expectNoErrorToast(html: string): void {
  expect(html).not.toContain('toast-error');
  expect(html).not.toMatch(/<p class="toast-title">Error<\/p>/);
}

describe('a refused quantity on the cart page', () => {
  it('is told above the list and beside its line, the typed quantity kept, once', async () => {
    const { agent, token } = await visitorWith([
      [PLENTY, 1],
      [FEW, 1],
    ]);
    const res = await agent.post(`/cart/items/${FEW}`).type('form').send({ _csrf: token, quantity: '7' }).expect(303);
    expect(res.headers.location).toBe('/cart');

    const page = (await agent.get('/cart').expect(200)).text;
    const reason = `Only 3 copies of "${await titleOf(FEW)}" are available.`.replace(/"/g, '&quot;');
    const summary = /<div class="form-problems" id="cart-line-2-problems"[^>]*>[\s\S]*?<\/div>/.exec(page)?.[0] ?? '';
    expect(summary).toMatch(/role="alert" tabindex="-1" autofocus/);
    expect(summary).toContain('<h2 class="form-problems-title" id="cart-line-2-problems-title">Failed to update cart</h2>');
    expect(summary).toContain(`<a href="#qty-${FEW}">${reason}</a>`);
    // Above the list, after the page's heading.
    expect(page.indexOf(summary)).toBeLessThan(page.indexOf('<ul class="cart-lines">'));
    expect(page.indexOf(summary)).toBeGreaterThan(page.indexOf('<h1>'));

    // Beside the line it concerns, and only that line.
    expect(page).toMatch(new RegExp(`id="qty-${FEW}"[^>]*value="7"[^>]*aria-invalid="true" aria-describedby="qty-${FEW}-error"`));
    const line = /<li class="cart-line">(?:(?!<li class="cart-line">)[\s\S])*?id="qty-2"[\s\S]*?<\/li>/.exec(page)?.[0] ?? '';
    expect(line).toContain(`<small id="qty-${FEW}-error" class="field-error">${reason}</small>`);
    expect(page).toMatch(new RegExp(`id="qty-${PLENTY}"[^>]*value="1" inputmode="numeric">`));
    expectNoErrorToast(page);

    // The cart is unchanged, and a reload draws the page without the refusal.
    const again = (await agent.get('/cart').expect(200)).text;
    expect(again).not.toContain('form-problems');
    expect(again).not.toContain('aria-invalid');
    expect(again).toMatch(new RegExp(`id="qty-${FEW}"[^>]*value="1"`));
  });

  it('says a line is sold out beside it', async () => {
    const { agent, token } = await visitorWith([[FEW, 1]]);
    await setBook(FEW, { inStock: 0 });
    await agent.post(`/cart/items/${FEW}`).type('form').send({ _csrf: token, quantity: '2' }).expect(303);
    const page = (await agent.get('/cart').expect(200)).text;
    const soldOut = `Sorry, "${await titleOf(FEW)}" is sold out right now.`.replace(/"/g, '&quot;');
    expect(page).toContain(`<small id="qty-${FEW}-error" class="field-error">${soldOut}</small>`);
    expectNoErrorToast(page);
  });

  it('tells a line that is no longer in the cart (changed in another tab) in the summary alone, which links to nothing', async () => {
    const { agent, token } = await visitorWith([[PLENTY, 1]]);
    await agent.post(`/cart/items/${FEW}`).type('form').send({ _csrf: token, quantity: '2' }).expect(303);
    const page = (await agent.get('/cart').expect(200)).text;
    expect(page).toContain('<h2 class="form-problems-title" id="cart-line-2-problems-title">Failed to update cart</h2>');
    expect(page).toMatch(/<li>That book is not in your cart\.<\/li>/);
    expect(page).not.toContain('href="#qty-2"');
    expect(page).not.toContain('aria-invalid');
    expectNoErrorToast(page);
  });

  it('still confirms a change that was made with a toast, and draws no summary', async () => {
    const { agent, token } = await visitorWith([[PLENTY, 1]]);
    await agent.post(`/cart/items/${PLENTY}/remove`).type('form').send({ _csrf: token }).expect(303);
    const page = (await agent.get('/cart').expect(200)).text;
    expect(page).toContain('<li class="toast toast-success" data-toast>');
    expect(page).toContain('<p class="toast-title">Removed from cart</p>');
    expect(page).not.toContain('form-problems');
  });
});

describe('Add to Cart refused without JavaScript', () => {
  it('from the book page: told beside its quantity, the chosen quantity kept', async () => {
    const { agent, token } = await visitorWith([[FEW, 2]]);
    const res = await agent
      .post('/cart')
      .type('form')
      .send({ _csrf: token, bookId: String(FEW), quantity: '2' })
      .expect(303);
    expect(res.headers.location).toBe(`/books/${FEW}`);
    const page = (await agent.get(`/books/${FEW}`).expect(200)).text;
    const form = /<form method="post" action="\/cart" class="add-to-cart" id="add-to-cart-2"[^>]*>([\s\S]*?)<\/form>/.exec(page)?.[1] ?? '';
    expect(form.trimStart()).toMatch(/^<div class="form-problems" id="add-to-cart-2-problems" role="alert" tabindex="-1" autofocus/);
    expect(form).toContain('<h2 class="form-problems-title" id="add-to-cart-2-problems-title">Failed to add item to cart</h2>');
    const reason = `Only 3 copies of "${await titleOf(FEW)}" are available.`.replace(/"/g, '&quot;');
    expect(form).toContain(`<a href="#quantity">${reason}</a>`);
    expect(form).toMatch(/<select id="quantity" name="quantity" aria-invalid="true" aria-describedby="quantity-error">/);
    expect(form).toContain(`<small id="quantity-error" class="field-error">${reason}</small>`);
    expect(form).toContain('<option value="2" selected>2</option>');
    expectNoErrorToast(page);
    expect((await agent.get(`/books/${FEW}`).expect(200)).text).not.toContain('form-problems');
  });

  it("from a catalogue card: told on the book's page, where a quantity can be chosen", async () => {
    const { agent, token } = await visitorWith([[FEW, 3]]);
    const res = await agent
      .post('/cart')
      .type('form')
      .send({ _csrf: token, bookId: String(FEW), quantity: '1', returnTo: '/books' })
      .expect(303);
    expect(res.headers.location).toBe(`/books/${FEW}`);
    const page = (await agent.get(`/books/${FEW}`).expect(200)).text;
    expect(page).toContain('id="add-to-cart-2-problems"');
    expect(page).toContain('<small id="quantity-error" class="field-error">');
    expectNoErrorToast(page);
    // The catalogue it came from says nothing of it.
    expect((await agent.get('/books').expect(200)).text).not.toContain('form-problems');
  });

  it("of a sold-out book: the summary alone, since the quantity can't be chosen", async () => {
    const { agent, token } = await visitorWith([]);
    await setBook(FEW, { inStock: 0 });
    await agent
      .post('/cart')
      .type('form')
      .send({ _csrf: token, bookId: String(FEW), quantity: '1' })
      .expect(303);
    const page = (await agent.get(`/books/${FEW}`).expect(200)).text;
    const soldOut = `Sorry, "${await titleOf(FEW)}" is sold out right now.`.replace(/"/g, '&quot;');
    expect(page).toMatch(new RegExp(`<li>${soldOut}</li>`));
    expect(page).not.toContain('href="#quantity"');
    expect(page).not.toContain('aria-invalid');
    expectNoErrorToast(page);
  });

  it('of a book that is gone: the error page, not a book page that cannot be shown', async () => {
    const { agent, token } = await visitorWith([]);
    await setBook(FEW, { hidden: true });
    const res = await agent
      .post('/cart')
      .type('form')
      .send({ _csrf: token, bookId: String(FEW), quantity: '1' });
    expect(res.status).toBe(404);
    expectNoErrorToast(res.text);
  });
});
