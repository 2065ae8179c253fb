// A parent who uses only the keyboard buys a book, on a desktop and on a phone-sized window:
// home (skip link) -> catalogue -> book page -> 'Add to Cart' -> cart drawer (one more copy,
// Escape closes it and focus returns to the cart button) -> 'Proceed to Checkout' -> guest details
// and address -> 'Validate Address' -> a 3D Secure card (the bank's dialog, refused with Escape;
// the failure beside Pay takes the focus) -> card 4242... -> 'Pay' -> /order-confirmation -> the
// greeting in the header -> /dashboard.
//
// Only page.keyboard moves focus or types. After every key press the focused element must show
// a focus ring (an outline or a box-shadow ring at least 2px wide, at least 3:1 against what is
// behind it) and sit inside the viewport.
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './fixtures.ts';
import { desktop, phone, screenshot, withPage, type Shop } from './harness.ts';
import { eventually, expectToast, futureExpiry, newCustomer, pathOf, plentifulBook, PORTLAND, type Book } from './steps.ts';

test.use({ shopFor: 'keyboard' });

let shop: Shop;
let browser: Browser;
let book: Book;

test.beforeAll(async ({ browser: launched, shop: started }) => {
  shop = started;
  browser = launched;
  book = await plentifulBook(shop.baseUrl);
});

// ---------------------------------------------------------------------------------------------
// What is focused, and whether a sighted keyboard user can see it

interface Focused {
  /** e.g. `button.drawer-close "Close cart"` */
  describe: string;
  /** Why the focus cannot be seen, or null when it can. */
  invisible: string | null;
}

function readFocus(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement)
      return { describe: '(nothing: the page itself)', invisible: 'focus is on the page itself' };
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    const describe = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${name}"`;
    const style = getComputedStyle(el);
    // WCAG 1.4.11: the ring's colour, laid over what is behind the element, has at least 3:1 against it.
    const rgba = (css: string) =>
      (/rgba?\(([^)]*)\)/.exec(css)?.[1] ?? '0,0,0,0').split(',').map(Number) as [number, number, number, number?];
    const backdrop = (() => {
      for (let node = el.parentElement; node; node = node.parentElement) {
        const [r, g, b, a = 1] = rgba(getComputedStyle(node).backgroundColor);
        if (a === 1) return [r, g, b] as const;
      }
      return [255, 255, 255] as const;
    })();
    const luminance = (rgb: readonly number[]) =>
      rgb
        .map((c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4))
        .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
    const contrasts = (css: string) => {
      const [r, g, b, a = 1] = rgba(css);
      const laid = [r, g, b].map((c, i) => c * a + backdrop[i]! * (1 - a));
      const [hi, lo] = [luminance(laid), luminance(backdrop)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05) >= 3;
    };
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && contrasts(style.outlineColor);
    // A ring drawn as a box-shadow: a colour that stands out and a spread of at least 2px.
    const rings = style.boxShadow === 'none' ? [] : style.boxShadow.split(/,(?![^(]*\))/);
    const ring = rings.some((shadow) => {
      const lengths = shadow
        .replace(/rgba?\([^)]*\)/, '')
        .replace('inset', '')
        .trim()
        .split(/\s+/)
        .map(parseFloat);
      return (lengths[3] ?? 0) >= 2 && contrasts(shadow);
    });
    const box = el.getBoundingClientRect();
    const inView = box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
    const invisible = !(outline || ring)
      ? `no focus ring (outline ${style.outlineStyle} ${style.outlineWidth}, box-shadow ${style.boxShadow})`
      : !inView
        ? `outside the viewport (${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}x${Math.round(box.height)})`
        : null;
    return { describe, invisible };
  });
}

/** The focused element shows its focus (waiting out a ring's short transition). */
async function expectVisibleFocus(page: Page, step: string): Promise<void> {
  await eventually(async () => {
    const focus = await readFocus(page);
    return focus.invisible ? `${step}: ${focus.describe}: ${focus.invisible}` : 'visible';
  }).toBe('visible');
}

interface Target {
  /** CSS selector the focused element must match. */
  selector: string;
  /** Its accessible name (aria-label, else text) must be exactly this, when given. */
  name?: string;
  /** Every stop on the way must be inside this element (a dialog's focus trap). */
  within?: string;
}

/** Presses Tab (or Shift+Tab) until `target` has focus, checking the focus ring at every stop. */
async function tabTo(page: Page, target: Target, { back = false, max = 60 } = {}): Promise<void> {
  const seen: string[] = [];
  for (let press = 0; press < max; press++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const focus = await readFocus(page);
    seen.push(focus.describe);
    await expectVisibleFocus(page, `Tab stop ${press + 1} on ${pathOf(page)}`);
    const at = await page.evaluate(({ selector, name, within }) => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return { match: false, inside: within === undefined };
      const inside = within === undefined || Boolean(el.closest(within));
      const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
      return { match: el.matches(selector) && (name === undefined || label === name), inside };
    }, target);
    expect(at.inside, `focus left ${target.within} for ${focus.describe}`).toBe(true);
    if (at.match) return;
  }
  throw new Error(
    `${max} presses of ${back ? 'Shift+Tab' : 'Tab'} on ${pathOf(page)} never reached ${target.selector} ${target.name ?? ''}; stops: ${seen.join(' -> ')}`,
  );
}

/** Tabs to a text field and types into it. */
async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await tabTo(page, { selector });
  await page.keyboard.type(text);
  expect(await page.locator(selector).inputValue()).toBe(text);
}

/** Presses `key` on the focused link or button and waits for the page it leads to. */
async function follow(page: Page, key: 'Enter' | 'Space', pathname: string): Promise<void> {
  await Promise.all([page.waitForURL((url) => url.pathname === pathname), page.keyboard.press(key)]);
  await page.waitForLoadState('load');
}

// ---------------------------------------------------------------------------------------------
// The journey

async function keyboardPurchase(page: Page, device: string): Promise<void> {
  const customer = newCustomer(device === 'desktop' ? 'Kit' : 'Kay');
  const res = await page.goto(`${shop.baseUrl}/`);
  expect(res?.status()).toBe(200);

  // The first Tab reaches the skip link; following it puts the next Tab inside <main>.
  await tabTo(page, { selector: 'a.skip-link', name: 'Skip to main content' }, { max: 1 });
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  await tabTo(page, { selector: 'main a' }, { max: 1 });

  // The catalogue, then the book.
  await tabTo(page, { selector: 'a.hero-cta', name: 'Explore Our Collection' });
  await follow(page, 'Enter', '/books');
  await tabTo(page, { selector: `a[href="/books/${book.id}"]` });
  await follow(page, 'Enter', `/books/${book.id}`);

  // One copy into the cart.
  await tabTo(page, { selector: '#quantity' });
  expect(await page.locator('#quantity').inputValue()).toBe('1');
  await tabTo(page, { selector: 'form[data-add-to-cart] button[type="submit"]', name: 'Add to Cart' });
  await page.keyboard.press('Enter');
  await expectToast(page, 'Added to Cart!', `${book.title} has been added to your cart.`);
  await expectVisibleFocus(page, 'after Add to Cart');
  await screenshot(page, `keyboard-${device}-book-added`, { fullPage: false });

  // The cart drawer: opened from the header, focus moves in and stays in.
  await tabTo(page, { selector: '[data-cart-button]' }, { back: true });
  await page.keyboard.press('Enter');
  const drawer = '.cart-drawer[role="dialog"]';
  await page.locator(drawer).waitFor();
  await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close cart');
  await expectVisibleFocus(page, 'drawer opened');
  await page.locator(`${drawer} .cart-line`).waitFor();

  // One more copy: the quantity reads 2 and focus stays on the plus button.
  await tabTo(page, { selector: 'button', name: `One more ${book.title}`, within: drawer });
  await page.keyboard.press('Space');
  await eventually(() => page.locator(`${drawer} .quantity-control output`).innerText()).toBe('2');
  await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`One more ${book.title}`);
  await expectVisibleFocus(page, 'after one more copy');
  // Tab cycles inside the open drawer, all the way round.
  await tabTo(page, { selector: 'button.drawer-close', within: drawer });
  await screenshot(page, `keyboard-${device}-drawer`, { fullPage: false });

  // Escape closes it and gives focus back to the cart button.
  await page.keyboard.press('Escape');
  await eventually(() => page.locator(drawer).count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-cart-button'))).toBe(true);
  await expectVisibleFocus(page, 'drawer closed');

  // Open again and go to the checkout.
  await page.keyboard.press('Enter');
  await page.locator(`${drawer} .cart-line`).waitFor();
  await tabTo(page, { selector: 'a.checkout-button', name: 'Proceed to Checkout', within: drawer });
  await follow(page, 'Enter', '/simple-checkout');
  await page.locator('#card-number').waitFor();

  // The guest form, with an account.
  await typeInto(page, '#co-first', customer.firstName);
  await typeInto(page, '#co-last', customer.lastName);
  await typeInto(page, '#co-email', customer.email);
  await typeInto(page, '#co-password', customer.password);
  await typeInto(page, '#co-confirm', customer.password);
  await typeInto(page, '#co-address', PORTLAND.address);
  await typeInto(page, '#co-city', PORTLAND.city);
  await typeInto(page, '#co-zip', PORTLAND.zipCode);
  await tabTo(page, { selector: 'button', name: 'Validate Address' });
  await page.keyboard.press('Enter');
  await eventually(() => page.locator('.address-ok').count()).toBe(1);
  await expectVisibleFocus(page, 'after Validate Address');

  // First a card whose bank asks for 3D Secure: its dialog takes the focus, Escape refuses it,
  // and the focus comes back to Pay.
  await typeInto(page, '#card-number', '4000 0025 0000 3155');
  await typeInto(page, '#card-expiry', futureExpiry());
  await typeInto(page, '#card-cvc', '123');
  const total = page.locator('[data-total="total"]');
  await eventually(() => total.innerText()).toMatch(/^\$\d+\.\d\d$/);
  const pay = { selector: 'button.pay-button', name: `Pay ${await total.innerText()}` };
  await tabTo(page, pay);
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Confirm this payment' }).waitFor();
  await eventually(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Complete authentication');
  await expectVisibleFocus(page, 'the bank dialog');
  await screenshot(page, `keyboard-${device}-3ds-dialog`, { fullPage: false });
  await page.keyboard.press('Escape');
  await page.locator('#payment-problem').waitFor();
  // The failure takes the focus beside Pay, as a refusal's summary does; Pay is the next stop.
  await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe('payment-problem');
  await expectVisibleFocus(page, 'the payment failure, after the bank dialog closed');
  await tabTo(page, pay);

  // Then the card that pays: back to the number, select it all and type over it.
  await tabTo(page, { selector: '#card-number' }, { back: true });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('4242 4242 4242 4242');
  expect(await page.locator('#card-number').inputValue()).toBe('4242 4242 4242 4242');
  await tabTo(page, pay);
  await screenshot(page, `keyboard-${device}-checkout`, { fullPage: false });
  await Promise.all([page.waitForURL((url) => url.pathname === '/order-confirmation', { timeout: 30_000 }), page.keyboard.press('Enter')]);
  await page.waitForLoadState('load');
  expect(await page.locator('h1').innerText()).toBe('Order Confirmed!');

  // The confirmation, then the dashboard through the greeting in the header.
  await tabTo(page, { selector: 'header a.greeting', name: `Hello, ${customer.firstName}!` });
  await follow(page, 'Enter', '/dashboard');
  expect(await page.locator('h1').innerText()).toBe(`Hello, ${customer.firstName}!`);
  // The tabs are one Tab stop; the arrow keys move between them and show each panel.
  await tabTo(page, { selector: '[role="tab"][aria-selected="true"]', name: 'Profile' });
  await page.keyboard.press('ArrowRight');
  await eventually(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Orders');
  expect(await page.locator('[role="tab"][aria-selected="true"]').innerText()).toBe('Orders');
  await expectVisibleFocus(page, 'the Orders tab');
  await eventually(() => page.locator('#panel-orders li.order').count()).toBe(1);
  await screenshot(page, `keyboard-${device}-dashboard`, { fullPage: false });
}

test.describe('a keyboard-only parent', () => {
  for (const [device, options] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    test(`buys a book from the home page to the dashboard (${device})`, async () => {
      await withPage(browser, options, (page) => keyboardPurchase(page, device));
    });
  }
});
