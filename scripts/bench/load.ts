// Load generators: autocannon for throughput and fixed-rate scenarios, and a small driver that
// signs a parent in at a fixed rate, each time with a fresh session and CSRF token as the page would.
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

/** Signs `email` in `perSecond` times a second until stopped; returns how many sign-ins failed. */
export function signInsAtRate(
  baseUrl: string,
  credentials: { email: string; password: string },
  perSecond: number,
): () => Promise<{ done: number; failed: number }> {
  let done = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const signIn = async () => {
    const session = await fetch(`${baseUrl}/api/session`);
    const cookie = session.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const { csrfToken } = (await session.json()) as { csrfToken: string };
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    await res.arrayBuffer();
    if (res.ok) done += 1;
    else failed += 1;
  };
  const timer = setInterval(() => {
    const attempt = signIn().catch(() => void (failed += 1));
    inFlight.add(attempt);
    void attempt.finally(() => inFlight.delete(attempt));
  }, 1000 / perSecond);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
    return { done, failed };
  };
}
