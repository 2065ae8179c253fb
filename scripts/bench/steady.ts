// Traffic at a steady rate, as many visitors make it: a visit every 1/rate seconds, whether or
// not earlier ones were answered. (autocannon's rate limit sends each second's share at the
// start of that second and waits, so its latencies measure a burst of a whole second's visitors.)
import http from 'node:http';
import { cpuMsOf } from './proc.ts';
import { percentile, type Round } from './stats.ts';

export interface Step {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * What one visitor does at its turn: the requests in order, each sent when the one before is
 * answered, then `done` (which gives back a visitor lent for the visit). Undefined when no
 * visitor is free to make it.
 */
export type Visit = () => { steps: Step[]; done?: () => void } | undefined;

interface Answer {
  status: number | string;
  ms: number;
}

function send(agent: http.Agent, baseUrl: string, step: Step): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.request(
      `${baseUrl}${step.path}`,
      {
        agent,
        method: step.method,
        headers: { ...step.headers, ...(step.body ? { 'content-length': Buffer.byteLength(step.body) } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 'no status'));
        res.on('error', (err) => resolve(err.message));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
    req.end(step.body);
  });
}

/**
 * Starts `visits` in turn, `perSecond` visits a second spread evenly, over `connections`
 * kept-alive sockets, for `seconds`. A request's latency counts from the moment it was due,
 * so time spent queued behind a slow answer is measured, not hidden.
 */
export async function steadyRound(
  baseUrl: string,
  pid: number,
  visits: readonly Visit[],
  { perSecond, seconds, connections }: { perSecond: number; seconds: number; connections: number },
): Promise<Round> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const answers: Answer[] = [];
  const running: Promise<void>[] = [];
  const make = async (visit: Visit, due: number) => {
    const made = visit();
    if (!made) return void answers.push({ status: 'no visitor free', ms: 0 });
    // From when it was due, or from when it left if the timer let it leave early.
    let from = Math.min(due, performance.now());
    for (const step of made.steps) {
      const status = await send(agent, baseUrl, step);
      const now = performance.now();
      answers.push({ status, ms: now - from });
      from = now;
    }
    made.done?.();
  };
  const cpuBefore = cpuMsOf(pid);
  const start = performance.now();
  const total = Math.round(perSecond * seconds);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push(make(visits[i % visits.length]!, due));
  }
  await Promise.all(running);
  const elapsedS = (performance.now() - start) / 1000;
  const cpuMs = cpuMsOf(pid) - cpuBefore;
  agent.destroy();
  const latencies = answers.map((a) => a.ms);
  const errorKinds: Record<string, number> = {};
  for (const { status } of answers) {
    if (typeof status === 'number' && status < 400) continue;
    errorKinds[String(status)] = (errorKinds[String(status)] ?? 0) + 1;
  }
  return {
    requestsPerSecond: answers.length / elapsedS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: Object.values(errorKinds).reduce((a, b) => a + b, 0),
    errorKinds,
    requests: answers.length,
    cpuMs,
  };
}
