// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The islands' calls (islands/lib/api.ts) for a visitor the server has no session for yet:
// /api/session gives no token, the first change goes without one and makes the session, and
// the changes after it (even ones asked for at the same moment) carry that session's token.
type Call = { method: string; url: string; token: string | null };
let calls: Call[];
let hasSession: boolean;

beforeEach(() => {
  vi.resetModules();
  calls = [];
  hasSession = false;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({ method: init?.method ?? 'GET', url, token: headers.get('x-csrf-token') });
    if (url === '/api/session') return Response.json({ csrfToken: hasSession ? 'session-token' : null });
    await new Promise((resolve) => setTimeout(resolve, 5));
    hasSession = true;
    return Response.json({ ok: true });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const changes = () => calls.filter((c) => c.method !== 'GET');

describe('the islands without a session', () => {
  it('send the first change without a token, then ask again and send the session’s token', async () => {
    const { api } = await import('../../islands/lib/api.ts');
    await api('POST', '/api/cart', { bookId: 1 });
    await api('POST', '/api/cart', { bookId: 2 });
    expect(changes().map((c) => c.token)).toEqual([null, 'session-token']);
  });

  it('let one change make the session when two are asked for at once (a double click)', async () => {
    const { api } = await import('../../islands/lib/api.ts');
    await Promise.all([api('POST', '/api/cart', { bookId: 1 }), api('POST', '/api/cart', { bookId: 1 })]);
    expect(changes().map((c) => c.token)).toEqual([null, 'session-token']);
  });

  it('give the page’s empty form tokens the token of the session a first change made', async () => {
    document.body.innerHTML =
      '<form><input type="hidden" name="_csrf" value=""></form><form><input type="hidden" name="_csrf" value="kept"></form>';
    const { api } = await import('../../islands/lib/api.ts');
    await api('POST', '/api/check-email', { email: 'a@example.com' });
    await vi.waitFor(() => expect(document.querySelector<HTMLInputElement>('input[name="_csrf"]')!.value).toBe('session-token'));
    expect(document.querySelectorAll<HTMLInputElement>('input[name="_csrf"]')[1]!.value).toBe('kept');
  });

  it('ask for the token once a session has one', async () => {
    hasSession = true;
    const { api } = await import('../../islands/lib/api.ts');
    await api('POST', '/api/cart', { bookId: 1 });
    await api('PUT', '/api/cart/1', { quantity: 2 });
    expect(changes().map((c) => c.token)).toEqual(['session-token', 'session-token']);
    expect(calls.filter((c) => c.url === '/api/session')).toHaveLength(1);
  });
});
