// The islands' one way to call /api: cookies included, JSON in and out, the session's
// CSRF token on every change, and the server's errors read as they are shaped
// (docs/architecture.md, "What the API answers").

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's own message, suitable for a toast. */
    readonly serverMessage: string,
    readonly redirectUrl?: string,
    /** The form field the refusal is about, when the server names one. */
    readonly field?: string,
  ) {
    super(`${status}: ${serverMessage}`);
  }
}

/** What to tell the parent: the server's reason for a refusal (4xx), else `fallback`. */
export function messageOf(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status < 500 && err.serverMessage ? err.serverMessage : fallback;
}

let csrfToken: Promise<string> | undefined;

function token(): Promise<string> {
  csrfToken ??= fetch('/api/session', { credentials: 'same-origin' })
    .then((res) => {
      if (!res.ok) throw new ApiError(res.status, 'Failed to fetch session');
      return res.json() as Promise<{ csrfToken: string }>;
    })
    .then((session) => session.csrfToken)
    .catch((err: unknown) => {
      csrfToken = undefined;
      throw err;
    });
  return csrfToken;
}

/** Signing in or up starts a new session with a new token; the answer carries it. */
export function rememberCsrfToken(token: string): void {
  csrfToken = Promise.resolve(token);
}

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = await token();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const payload = (data ?? {}) as { message?: string; redirectUrl?: string; field?: unknown };
    throw new ApiError(
      res.status,
      payload.message ?? text,
      payload.redirectUrl,
      typeof payload.field === 'string' ? payload.field : undefined,
    );
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
