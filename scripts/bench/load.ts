// Load generators: autocannon for throughput and fixed-rate scenarios, and a small driver that
// signs a parent in at a fixed rate, each time with a fresh session and CSRF token as the page would.
import http, { type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { cpuMsOf } from './proc.ts';
import type { Round } from './stats.ts';

export type Target = Pick<autocannon.Options, 'requests' | 'headers' | 'method' | 'body' | 'overallRate' | 'connections'> & {
  path: string;
};

/** One autocannon run against `baseUrl`, with the CPU time the server process (`pid`) used meanwhile. */
export async function measure(baseUrl: string, pid: number, target: Target, seconds: number): Promise<Round> {
  const { path, ...options } = target;
  const before = cpuMsOf(pid);
  const result = await autocannon({ url: baseUrl + path, connections: 10, duration: seconds, ...options });
  const cpuMs = cpuMsOf(pid) - before;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors,
    requests: result.requests.total,
    cpuMs,
  };
}

export interface Parent {
  email: string;
  password: string;
  /** The address they sign in from, as the proxy in front of the shop tells it. */
  address: string;
}

export interface SignIns {
  /** How long each successful sign-in took, from asking for a session to the answer of the sign-in. */
  durationsMs: number[];
  /** The others, by status or error. */
  failures: Record<string, number>;
}

/**
 * Signs `parents` in by turns, `perSecond` times a second, until stopped; then says how the
 * sign-ins went.
 */
export function signInsAtRate(baseUrl: string, parents: readonly Parent[], perSecond: number): () => Promise<SignIns> {
  const durations: number[] = [];
  let turn = 0;
  const failures: Record<string, number> = {};
  const fail = (why: string) => void (failures[why] = (failures[why] ?? 0) + 1);
  const inFlight = new Set<Promise<void>>();
  const signIn = async ({ email, password, address }: Parent) => {
    const started = performance.now();
    const session = await send(`${baseUrl}/api/session`, { headers: { 'x-forwarded-for': address } });
    const cookie = (session.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const { csrfToken } = JSON.parse(session.body) as { csrfToken: string };
    const res = await send(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ email, password }),
    });
    if (res.status < 200 || res.status >= 300) return fail(String(res.status));
    durations.push(performance.now() - started);
  };
  const timer = setInterval(() => {
    const attempt = signIn(parents[turn++ % parents.length]!).catch((err: unknown) =>
      fail(err instanceof Error ? err.message : String(err)),
    );
    inFlight.add(attempt);
    void attempt.finally(() => inFlight.delete(attempt));
  }, 1000 / perSecond);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
    return { durationsMs: durations, failures };
  };
}

// Sign-ins go out over node:http, not fetch: they share a process and its one thread with
// autocannon, and a sign-in (two requests) cost that thread 4.4 ms of CPU with fetch, 2.2 ms
// with node:http.
const signInAgent = new http.Agent({ keepAlive: true });

/** One request as a browser sends it (asking for the compression the shop offers), and its answer as text. */
function send(
  url: string,
  { method = 'GET', headers, body }: { method?: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const asked = { 'accept-encoding': 'gzip, br', ...headers };
    const req = http.request(url, { method, headers: asked, agent: signInAgent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const text = (encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
