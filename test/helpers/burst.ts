import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';

/**
 * Real parallel requests: the app listens on a port and every request in a burst is a
 * separate HTTP request in flight at once, as an attacker's script would send them.
 */
export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listen(app: RequestListener): Promise<Listening> {
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A browser session: its cookie and CSRF token, reusable by many requests at once. */
export interface RawSession {
  cookie: string;
  token: string;
}

/**
 * Opens a session as a visitor's first change does (reading one stores none; see csrfTokenFor
 * in app.ts): a harmless change from the shop's own page, then the session's form token.
 */
export async function openSession(base: string): Promise<RawSession> {
  const first = await fetch(`${base}/api/validate-address`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ address: '1 Main Street', city: 'Springfield', zipCode: '62701' }),
  });
  if (!first.ok) throw new Error(`a first change was answered ${first.status}`);
  const cookie = first.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const res = await fetch(`${base}/api/session`, { headers: { cookie } });
  const body = (await res.json()) as { csrfToken: string | null };
  if (!cookie || typeof body.csrfToken !== 'string') throw new Error('no session after a first change');
  return { cookie, token: body.csrfToken };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export async function postJson(
  base: string,
  path: string,
  body: object,
  session: RawSession,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.token, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
