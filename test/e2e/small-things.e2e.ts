// Small things a parent meets, on a 390x844 phone, a 360x740 phone and a 1280x800 desktop:
//
//  1. The address check keeps a ZIP code that exists: 12 Ocean Ave, Miami, 33139 at guest
//     checkout is offered 12 Ocean Ave, Miami Beach, FL 33139 alone (never another ZIP code),
//     says why, and choosing it changes only the city. axe + screenshots.
//  2. A contact message sent: a lasting thank-you in place of the form, naming the address the
//     reply goes to (a long one wraps inside the card), still there after a reload, with a link
//     to write again; the same without JavaScript. axe + screenshots.
//  3. A long email on the dashboard wraps at its @ and dots, never mid-word, and nothing is wider
//     than the screen. axe + screenshots.
//  4. The forgot-password dialog sent empty stays open, the message beside its field; without
//     JavaScript the reset page says the same. axe + screenshots.
//  5. The catalogue's age menu offers no band without books (no "Ages 0-2").
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import {
  desktop,
  expectNoAxeViolations,
  isDocumentError,
  phone,
  registerAccount,
  screenshot,
  smallPhone,
  submitAndFollow,
  submitForm,
  withPage,
  type Shop,
} from './harness.ts';
import { eventually, expectToast, newCustomer, pathOf, plentifulBook, type Book } from './steps.ts';

test.use({ shopFor: 'small-things' });

let shop: Shop;
let browser: Browser;
let book: Book;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  book = await plentifulBook(shop.baseUrl);
});

const SIZES: Array<[string, BrowserContextOptions]> = [
  ['phone', phone],
  ['small-phone', smallPhone],
  ['desktop', { ...desktop, viewport: { width: 1280, height: 800 } }],
];

/** Nothing on the page is wider than the screen: no sideways scrolling. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page width').toBeLessThanOrEqual(clientWidth);
}

/**
 * Each piece of each shown email (between its <wbr>s: the name's words, the part after the @,
 * each dot's word) sits on one line, inside its box: a line may end at an @ or before a dot,
 * never inside a word.
 */
async function expectEmailsWrapAtSensiblePoints(page: Page): Promise<number> {
  const shown = await page.locator('.email').evaluateAll((emails) =>
    emails
      .filter((email) => email.getClientRects().length > 0)
      .map((email) => {
        const box = email.parentElement!.getBoundingClientRect();
        const pieces = [...email.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE);
        return pieces.map((piece) => {
          const range = document.createRange();
          range.selectNodeContents(piece);
          const lines = [...range.getClientRects()].filter((rect) => rect.width > 0);
          return { text: piece.textContent, lines: lines.length, inside: lines.every((rect) => rect.right <= box.right + 1) };
        });
      }),
  );
  for (const pieces of shown) for (const piece of pieces) expect(piece, piece.text ?? '').toMatchObject({ lines: 1, inside: true });
  return shown.length;
}

// -------------------------------------------------------------------------------------------------

test.describe('the address check keeps a ZIP code that exists', () => {
  for (const [size, options] of SIZES) {
    test(`12 Ocean Ave, Miami, 33139 is offered Miami Beach, FL 33139 alone (${size})`, async () => {
      await withPage(browser, options, async (page) => {
        expect((await page.goto(`${shop.baseUrl}/books/${book.id}`))?.status()).toBe(200);
        const form = page.locator('form[data-add-to-cart]');
        await form.getByRole('button', { name: 'Add to Cart', exact: true }).click();
        await expectToast(page, 'Added to Cart!', `${book.title} has been added to your cart.`);
        await page.goto(`${shop.baseUrl}/simple-checkout`);
        const validate = page.getByRole('button', { name: 'Validate Address', exact: true });
        await validate.waitFor();
        await page.locator('#co-address').fill('12 Ocean Ave');
        await page.locator('#co-city').fill('Miami');
        await page.locator('#co-zip').fill('33139');
        await validate.click();

        const suggestions = page.locator('.address-suggestions');
        await suggestions.waitFor();
        expect(await page.locator('.address-failed-title').innerText()).toBe('Address Verification Failed');
        await expect(suggestions.getByText('ZIP code 33139 is in Miami Beach, FL.', { exact: true })).toBeVisible();
        expect(await suggestions.getByRole('button').allInnerTexts()).toEqual(['12 Ocean Ave, Miami Beach, FL 33139']);
        await suggestions.scrollIntoViewIfNeeded();
        await expectNoSidewaysScroll(page);
        await expectNoAxeViolations(page);
        await screenshot(page, `small-things-${size}-address-keeps-zip`, { fullPage: false });

        await suggestions.getByRole('button', { name: '12 Ocean Ave, Miami Beach, FL 33139', exact: true }).click();
        expect(await page.locator('#co-city').inputValue()).toBe('Miami Beach');
        expect(await page.locator('#co-zip').inputValue()).toBe('33139');
        await expect(page.locator('.address-ok')).toHaveText('Address verified (100% confidence).');
      });
    });
  }
});

// -------------------------------------------------------------------------------------------------

/** Fills the contact form; the email is long, as some families' are. */
async function sendContactMessage(page: Page, email: string): Promise<void> {
  expect((await page.goto(`${shop.baseUrl}/contact`))?.status()).toBe(200);
  await page.locator('#contact-first').fill('Maya');
  await page.locator('#contact-last').fill('Okafor');
  await page.locator('#contact-email').fill(email);
  await page.locator('#contact-member-yes').check();
  await page.locator('#contact-subject').fill('A school visit in spring');
  await page.locator('#contact-message').fill('Could an author visit our school library in April?');
  await submitAndFollow(page, page.getByRole('button', { name: 'Send Message', exact: true }), {
    post: '/contact',
    landing: '/contact/sent',
  });
}

async function expectThankYou(page: Page, email: string): Promise<void> {
  const thanks = page.getByRole('region', { name: 'Message Sent Successfully!' });
  await expect(thanks).toBeVisible();
  expect((await thanks.innerText()).replace(/\s+/g, ' ')).toContain(
    `Thank you for reaching out, Maya. We'll reply to ${email}, typically within 24 hours.`,
  );
  await expect(thanks.getByRole('button', { name: 'Send another message' })).toHaveAttribute('href', '/contact');
  expect(await page.locator('#contact-form').count()).toBe(0);
}

test.describe('a contact message sent', () => {
  for (const [size, options] of SIZES) {
    test(`is answered by a lasting thank-you in place of the form (${size})`, async () => {
      await withPage(browser, options, async (page) => {
        const email = `maya.okafor.${size.replace('-', '')}.and.the.reading.family@lanternschoolsandlibraries.example.org`;
        await sendContactMessage(page, email);
        await expectThankYou(page, email);
        expect(await page.locator('[data-toasts] [data-toast]').count()).toBe(0);
        await expectNoSidewaysScroll(page);
        expect(await expectEmailsWrapAtSensiblePoints(page)).toBe(1);
        await expectNoAxeViolations(page);
        await screenshot(page, `small-things-${size}-contact-sent`);
        // Still there on a reload; the link brings the form back.
        await page.reload();
        await expectThankYou(page, email);
        await page.getByRole('button', { name: 'Send another message' }).click();
        await page.waitForURL((url) => url.pathname === '/contact');
        await expect(page.locator('#contact-form')).toBeVisible();
      });
    });
  }

  test('is answered by the same thank-you without JavaScript', async () => {
    await withPage(browser, { ...phone, javaScriptEnabled: false }, async (page) => {
      const email = 'maya.noscript@example.com';
      await sendContactMessage(page, email);
      await expectThankYou(page, email);
      await screenshot(page, 'small-things-phone-nojs-contact-sent');
    });
  });
});

// -------------------------------------------------------------------------------------------------

test.describe('a long email on the dashboard', () => {
  for (const [size, options] of SIZES) {
    test(`wraps at its @ and dots, never mid-word, and nothing is wider than the screen (${size})`, async () => {
      await withPage(browser, options, async (page) => {
        const customer = newCustomer('Ngozi');
        const email = `ngozi.${size.replace('-', '')}.grandmother.of.three.little.readers@lanternfamilymailservice.example.com`;
        await registerAccount(page.context(), shop.baseUrl, { ...customer, email });
        expect((await page.goto(`${shop.baseUrl}/dashboard`))?.status()).toBe(200);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello, Ngozi!');
        const heroEmail = page.locator('.dashboard-hero .email');
        expect(await heroEmail.innerText()).toBe(email);
        expect(await page.locator('.profile-facts .email').innerText()).toBe(email);
        await expectNoSidewaysScroll(page);
        expect(await expectEmailsWrapAtSensiblePoints(page)).toBe(2);
        await expectNoAxeViolations(page);
        await screenshot(page, `small-things-${size}-dashboard-long-email`, { fullPage: false });
      });
    });
  }
});

// -------------------------------------------------------------------------------------------------

test.describe('the forgot-password dialog sent empty', () => {
  for (const [size, options] of SIZES) {
    test(`stays open and says so beside the field (${size})`, async () => {
      await withPage(browser, options, async (page) => {
        expect((await page.goto(`${shop.baseUrl}/login`))?.status()).toBe(200);
        await page.getByRole('link', { name: 'Forgot password?' }).click();
        const dialog = page.getByRole('dialog', { name: 'Forgot your password?' });
        await expect(dialog).toBeVisible();
        await dialog.getByRole('button', { name: 'Send Reset Link' }).click();

        const field = dialog.getByLabel('Email');
        await expect(dialog.locator('#forgot-email-error')).toHaveText('Please enter your email address');
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        await expect(field).toHaveAccessibleDescription('Please enter your email address');
        await eventually(() => page.evaluate(() => document.activeElement?.id ?? '')).toBe('forgot-form-problems');
        expect(pathOf(page)).toBe('/login');
        await expect(dialog).toBeVisible();
        await expectNoAxeViolations(page);
        await screenshot(page, `small-things-${size}-forgot-empty`, { fullPage: false });

        // Typing takes the message away; Cancel closes the dialog, which opens again afresh.
        await field.fill('a');
        await expect(dialog.locator('#forgot-email-error')).toHaveCount(0);
        await field.fill('');
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await expect(dialog).toBeHidden();
        await page.getByRole('link', { name: 'Forgot password?' }).click();
        await expect(dialog.locator('[data-form-problems], [data-field-problem]')).toHaveCount(0);
      });
    });
  }

  test('without JavaScript, the reset page says the same beside its field', async () => {
    await withPage(
      browser,
      { ...phone, javaScriptEnabled: false },
      async (page) => {
        expect((await page.goto(`${shop.baseUrl}/login`))?.status()).toBe(200);
        await page.getByRole('link', { name: 'Forgot password?' }).click();
        await page.waitForURL((url) => url.pathname === '/reset-password');
        const response = await submitForm(page, page.getByRole('button', { name: 'Send Reset Link' }));
        expect(response.status()).toBe(400);
        await expect(page.locator('#reset-email-error')).toHaveText('Please enter your email address');
        await expect(page.locator('#reset-email')).toHaveAttribute('aria-invalid', 'true');
        await screenshot(page, 'small-things-phone-nojs-forgot-empty', { fullPage: false });
      },
      { allow: isDocumentError('/reset-password', 400) },
    );
  });
});

// -------------------------------------------------------------------------------------------------

test('the age menu offers only bands with books: no "Ages 0-2"', async () => {
  await withPage(browser, phone, async (page) => {
    expect((await page.goto(`${shop.baseUrl}/books`))?.status()).toBe(200);
    expect(await page.locator('#finder-age option').allInnerTexts()).toEqual(['All ages', 'Ages 3-5', 'Ages 6-9', 'Ages 9-12']);
  });
});
