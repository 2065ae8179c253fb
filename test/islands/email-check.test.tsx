// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMAIL_CHECK_DEBOUNCE_MS, EmailCheck } from '../../islands/email-check/EmailCheck.tsx';

// The server's answer waits until the test releases it, so the in-between state can be read.
let release: (() => void) | undefined;

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('fetch', async (url: string) => {
    if (url === '/api/session') return Response.json({ csrfToken: 't' });
    await new Promise<void>((resolve) => (release = resolve));
    return Response.json({ exists: false });
  });
  document.body.innerHTML = '<input id="email" type="email">';
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  release = undefined;
});

function type(value: string) {
  const input = document.getElementById('email') as HTMLInputElement;
  act(() => {
    input.value = value;
    input.dispatchEvent(new Event('input'));
  });
}

async function pause() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(EMAIL_CHECK_DEBOUNCE_MS);
  });
}

describe('live email check', () => {
  it('drops the previous verdict as soon as the address changes and shows the checking state', async () => {
    const { container } = render(<EmailCheck inputId="email" />);
    const input = document.getElementById('email')!;
    type('maya-at-example');
    await pause();
    expect(container.textContent).toBe('Please enter a valid email address');
    expect(input.getAttribute('aria-invalid')).toBe('true');

    type('maya@example.com');
    expect(container.textContent).toBe('Checking...');
    expect(input.hasAttribute('aria-invalid')).toBe(false);

    await pause();
    expect(container.textContent).toBe('Checking...');
    await act(async () => {
      release?.();
      await vi.runAllTimersAsync();
    });
    expect(container.textContent).toBe('Email is available!');
  });

  it('clears the verdict when the field is emptied', async () => {
    const { container } = render(<EmailCheck inputId="email" />);
    type('maya-at-example');
    await pause();
    type('');
    expect(container.textContent).toBe('');
  });
});

describe('the email check beside a refused field', () => {
  it("leaves the server's mark on a refused email alone, and takes back only its own", async () => {
    document.body.innerHTML = '<input id="email" type="email" value="ada-at-home" aria-invalid="true" aria-describedby="email-error">';
    render(<EmailCheck inputId="email" />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(EMAIL_CHECK_DEBOUNCE_MS + 10);
    });
    expect(document.getElementById('email')?.getAttribute('aria-invalid')).toBe('true');
    type('ada@example.com');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(EMAIL_CHECK_DEBOUNCE_MS + 10);
    });
    // The server's refusal stands until the form is sent again.
    expect(document.getElementById('email')?.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('at guest checkout, an address that has an account is offered a sign-in', () => {
  const LOGIN_FAILED = { message: 'Invalid email or password' };
  let logins: Array<Record<string, unknown>>;
  let loginAnswer: () => Response;
  let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

  beforeEach(() => {
    logins = [];
    loginAnswer = () => Response.json({ redirectUrl: '/authcheckout', csrfToken: 'u' });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      if (url === '/api/session') return Response.json({ csrfToken: 't' });
      if (url === '/api/check-email') return Response.json({ exists: true });
      if (url === '/api/auth/login') {
        logins.push(JSON.parse(init.body as string) as Record<string, unknown>);
        return loginAnswer();
      }
      throw new Error(`unexpected ${url}`);
    });
    assign = vi.fn<(url: string | URL) => void>();
    vi.spyOn(window.location, 'assign').mockImplementation(assign);
    document.body.innerHTML = `
      <form id="checkout-form">
        <input id="co-email" type="email" name="email">
        <div id="status"></div>
        <input id="co-password" type="password" name="password" autocomplete="new-password">
      </form>`;
  });

  async function offered() {
    const status = document.getElementById('status')!;
    render(<EmailCheck inputId="co-email" signIn={{ passwordId: 'co-password', next: '/authcheckout' }} />, { container: status });
    const input = document.getElementById('co-email') as HTMLInputElement;
    act(() => {
      input.value = 'returning@example.com';
      input.dispatchEvent(new Event('input'));
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(EMAIL_CHECK_DEBOUNCE_MS + 10);
    });
    return status;
  }
  const button = () => document.querySelector<HTMLButtonElement>('#status button')!;
  const password = () => document.getElementById('co-password') as HTMLInputElement;
  async function press() {
    await act(async () => {
      button().click();
      await vi.runAllTimersAsync();
    });
  }

  it('keeps the words of the live check and adds the offer, asking the password manager for the saved password', async () => {
    const status = await offered();
    expect(status.querySelector('.email-check')?.textContent).toBe(
      'This email is already registered. Please use a different email or sign in.',
    );
    expect(button().textContent).toBe('Sign in and continue');
    expect(password().getAttribute('autocomplete')).toBe('current-password');
  });

  it('signs in with the password typed in the form and goes on to the signed-in checkout', async () => {
    await offered();
    password().value = 'story-time-42';
    await press();
    expect(logins).toEqual([{ email: 'returning@example.com', password: 'story-time-42', next: '/authcheckout' }]);
    expect(assign).toHaveBeenCalledWith('/authcheckout');
  });

  it('signs in on Enter in the password field, rather than sending the form to make an account', async () => {
    await offered();
    password().value = 'story-time-42';
    const submitted = vi.fn((event: Event) => event.preventDefault());
    document.getElementById('checkout-form')!.addEventListener('submit', submitted);
    await act(async () => {
      const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
      password().dispatchEvent(enter);
      expect(enter.defaultPrevented).toBe(true);
      await vi.runAllTimersAsync();
    });
    expect(logins).toEqual([{ email: 'returning@example.com', password: 'story-time-42', next: '/authcheckout' }]);
    expect(submitted).not.toHaveBeenCalled();
  });

  it('asks for the password beside its field before asking the server', async () => {
    await offered();
    await press();
    expect(logins).toEqual([]);
    expect(document.getElementById('co-password-error')?.textContent).toBe('Please enter your password.');
    expect(document.activeElement).toBe(password());
  });

  it('tells a wrong password in the sign-in form’s words, beside the password, and stays', async () => {
    loginAnswer = () => Response.json(LOGIN_FAILED, { status: 401 });
    await offered();
    password().value = 'not-my-password';
    await press();
    expect(document.querySelector('#checkout-form-problems h2')?.textContent).toBe('Login Failed');
    expect(document.getElementById('co-password-error')?.textContent).toBe('Invalid email or password');
    expect(password().getAttribute('aria-invalid')).toBe('true');
    expect(assign).not.toHaveBeenCalled();
    expect(button().textContent).toBe('Sign in and continue');
  });

  it('follows the server to the security alert or to the second step', async () => {
    for (const redirectUrl of ['/failedlogin', '/admin/two-factor']) {
      loginAnswer = () => Response.json({ message: 'REDIRECT_TO_FAILED_LOGIN', redirectUrl }, { status: 401 });
      cleanup();
      assign.mockClear();
      await offered();
      password().value = 'story-time-42';
      await press();
      expect(assign).toHaveBeenCalledWith(redirectUrl);
    }
  });

  it('offers nothing where no sign-in is wanted (Create Account)', async () => {
    const { container } = render(<EmailCheck inputId="co-email" />);
    const input = document.getElementById('co-email') as HTMLInputElement;
    act(() => {
      input.value = 'returning@example.com';
      input.dispatchEvent(new Event('input'));
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(EMAIL_CHECK_DEBOUNCE_MS + 10);
    });
    expect(container.textContent).toBe('This email is already registered. Please use a different email or sign in.');
    expect(container.querySelector('button')).toBeNull();
  });
});
