// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Eta } from 'eta';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initDialogs } from '../../islands/lib/dialogs.ts';
import { initResetDialog } from '../../islands/lib/reset-dialog.ts';
import { VIEWS_DIR } from '../../src/web/views.ts';
import { ACCOUNT_MESSAGES as M } from '../../src/features/accounts/accounts.messages.ts';

// The forgot-password dialog sent with no email stays open and says 'Please enter your email
// address' beside the field, as the reset page does without script; an email goes on as before.

/** The sign-in page's own dialog and the link that opens it, as the server renders them. */
function signInPage(): void {
  const login = readFileSync(join(VIEWS_DIR, 'accounts/login.eta'), 'utf8');
  const link = /<a href="\/reset-password"[^>]*>Forgot password\?<\/a>/.exec(login)![0];
  const dialog = /<dialog id="forgot-dialog"[\s\S]*?<\/dialog>/.exec(login)![0];
  const html = new Eta({ autoTrim: false }).renderString(`${link}${dialog}`, {
    csrfToken: () => 't',
    limits: { email: 254 },
    resetMissing: { title: M.resetFailed.title, message: M.resetMissing },
  });
  document.body.innerHTML = html;
  initDialogs();
  initResetDialog();
}

let sent: string[];
beforeEach(() => {
  sent = [];
  // happy-dom's dialog: showModal and close as a browser's, submission recorded instead of sent.
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  document.addEventListener('submit', record);
});
afterEach(() => {
  document.removeEventListener('submit', record);
  document.body.innerHTML = '';
});

/** What the browser would send: the forms whose submission no script stopped. */
function record(event: Event): void {
  if (!event.defaultPrevented) sent.push((event.target as HTMLFormElement).action);
  event.preventDefault();
}

const dialog = () => document.getElementById('forgot-dialog') as HTMLDialogElement;
const email = () => document.getElementById('forgot-email') as HTMLInputElement;
const form = () => email().form!;

function send(): void {
  form().dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
}

describe('the forgot-password dialog', () => {
  it('sent empty, stays open and says so beside the field, inside the dialog', () => {
    signInPage();
    document.querySelector<HTMLAnchorElement>('[data-dialog-open="forgot-dialog"]')!.click();
    expect(dialog().open).toBe(true);
    email().value = '   ';
    send();
    expect(sent).toEqual([]);
    expect(dialog().open).toBe(true);
    const message = document.getElementById('forgot-email-error')!;
    expect(message.textContent).toBe('Please enter your email address');
    expect(dialog().contains(message)).toBe(true);
    expect(email().getAttribute('aria-invalid')).toBe('true');
    expect(email().getAttribute('aria-describedby')).toBe('forgot-email-error');
    const summary = form().querySelector<HTMLElement>('[data-form-problems]')!;
    expect(summary.querySelector('h2')!.textContent).toBe('Reset Failed');
    expect(document.activeElement).toBe(summary);
  });

  it('takes the message away as the parent types, and sends the email', () => {
    signInPage();
    send();
    expect(document.getElementById('forgot-email-error')).not.toBeNull();
    email().value = 'amara@example.com';
    email().dispatchEvent(new Event('input', { bubbles: true }));
    expect(document.getElementById('forgot-email-error')).toBeNull();
    expect(email().hasAttribute('aria-invalid')).toBe(false);
    send();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/\/reset-password$/);
  });

  it('opens afresh after Cancel, without the old message', () => {
    signInPage();
    document.querySelector<HTMLAnchorElement>('[data-dialog-open="forgot-dialog"]')!.click();
    send();
    document.querySelector<HTMLButtonElement>('[data-dialog-close]')!.click();
    expect(dialog().open).toBe(false);
    expect(form().querySelector('[data-form-problems], [data-field-problem]')).toBeNull();
    expect(email().hasAttribute('aria-invalid')).toBe(false);
  });
});
