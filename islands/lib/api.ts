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

let csrfToken: Promise<string | null> | undefined;

/**
 * The session's token, asked for once. A visitor without a session has none yet (null): their
 * first change goes without it and makes the session, so the token is asked for again next time.
 */
function token(): Promise<string | null> {
  const asked = (csrfToken ??= fetch('/api/session', { credentials: 'same-origin' })
    .then((res) => {
      if (!res.ok) throw new ApiError(res.status, 'Failed to fetch session');
      return res.json() as Promise<{ csrfToken: string | null }>;
    })
    .then((session) => {
      if (!session.csrfToken) csrfToken = undefined;
      return session.csrfToken;
    })
    .catch((err: unknown) => {
      csrfToken = undefined;
      throw err;
    }));
  return asked;
}

let firstChange: Promise<void> | undefined;

/**
 * The token for a change, and what to call once the change is answered. Without a session the
 * change goes without a token and makes the session; changes asked for meanwhile (a double
 * click) wait for it and then use that session's token, so one visitor never starts two.
 */
async function tokenForChange(): Promise<{ token: string | null; answered: () => void }> {
  for (;;) {
    if (firstChange) {
      await firstChange;
      continue;
    }
    const sessionToken = await token();
    if (firstChange) continue;
    if (sessionToken) return { token: sessionToken, answered: () => undefined };
    let answered = () => undefined as void;
    firstChange = new Promise<void>((resolve) => {
      answered = () => {
        firstChange = undefined;
        resolve();
      };
    });
    return { token: null, answered };
  }
}

/**
 * The page's forms were drawn for a visitor without a session, with an empty token: once a
 * change of an island has made the session (the live email check as the parent types), they
 * carry its token, or the form's post would be refused.
 */
function giveFormsToken(sessionToken: string | null): void {
  if (!sessionToken || typeof document === 'undefined') return;
  for (const field of document.querySelectorAll<HTMLInputElement>('input[name="_csrf"]')) if (!field.value) field.value = sessionToken;
}

/** Signing in or up starts a new session with a new token; the answer carries it. */
export function rememberCsrfToken(token: string): void {
  csrfToken = Promise.resolve(token);
}

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let answered = () => undefined as void;
  let firstOfSession = false;
  if (method !== 'GET') {
    const change = await tokenForChange();
    if (change.token) headers['x-csrf-token'] = change.token;
    else firstOfSession = true;
    answered = change.answered;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  }).finally(answered);
  if (firstOfSession) void token().then(giveFormsToken, () => undefined);
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
