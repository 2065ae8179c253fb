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
