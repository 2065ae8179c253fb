// The confirmation email's link, opened signed out on a phone: sign-in first, then that order.
import { expect, type APIRequestContext, type Browser } from '@playwright/test';
import { test } from './fixtures.ts';
import { openPage, phone, registerAccount, screenshot, submitAndFollow, withPage, type Shop, changeHeaders } from './harness.ts';
import { expectToast, newCustomer, PORTLAND } from './steps.ts';

test.use({ shopFor: 'confirmation-link' });

let shop: Shop;
let browser: Browser;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
});

/** Sends JSON with the session's current CSRF token and expects `status`. */
async function post(request: APIRequestContext, path: string, data: object, status = 200): Promise<Record<string, unknown>> {
  const { csrfToken } = (await (await request.get(`${shop.baseUrl}/api/session`)).json()) as { csrfToken: string | null };
  const res = await request.post(`${shop.baseUrl}${path}`, { headers: changeHeaders(csrfToken), data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
  return (await res.json()) as Record<string, unknown>;
}

/** A customer who paid for a book (the sandbox card), through the same API the card island uses. */
async function paidOrder(customer: ReturnType<typeof newCustomer>): Promise<number> {
  const buying = await openPage(browser, phone);
  try {
    await registerAccount(buying.context, shop.baseUrl, customer);
    const request = buying.context.request;
    await post(request, '/api/cart', { bookId: 1, quantity: 1 }, 201);
    const shippingInfo = { address: PORTLAND.address, city: PORTLAND.city, zipCode: PORTLAND.zipCode };
    const intent = (await post(request, '/api/create-payment-intent-authenticated', { shippingInfo })) as {
      paymentIntentId: string;
      clientSecret: string;
    };
    await post(request, '/api/sandbox/confirm', {
      paymentIntentId: intent.paymentIntentId,
      clientSecret: intent.clientSecret,
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
    });
    const completed = (await post(request, '/api/complete-order', { stripePaymentIntentId: intent.paymentIntentId, shippingInfo })) as {
      order: { id: number };
    };
    return Number(completed.order.id);
  } finally {
    await buying.close();
  }
}

test.describe("the confirmation email's link", () => {
  test('signed out, leads to sign-in and then to that order', async () => {
    const customer = newCustomer('Nell');
    const orderId = await paidOrder(customer);
    await withPage(browser, phone, async (page) => {
      const emailLink = `/order-confirmation?orderId=${orderId}`;
      await page.goto(`${shop.baseUrl}${emailLink}`);
      const url = new URL(page.url());
      expect(url.pathname).toBe('/login');
      expect(url.searchParams.get('next')).toBe(emailLink);

      const form = page.locator('#panel-signin form');
      await form.getByLabel('Email', { exact: true }).fill(customer.email);
      await form.getByLabel('Password', { exact: true }).fill(customer.password);
      await submitAndFollow(page, form.getByRole('button', { name: 'Sign In', exact: true }), {
        post: '/login',
        landing: '/order-confirmation',
      });
      expect(new URL(page.url()).search).toBe(`?orderId=${orderId}`);
      await page.getByRole('heading', { level: 1, name: 'Order Confirmed!' }).waitFor();
      expect(await page.locator('.order-facts').innerText()).toContain(`#${orderId}`);
      await expectToast(page, 'Welcome back!');
      await screenshot(page, 'phone-confirmation-link-after-sign-in');
    });
  });
});
