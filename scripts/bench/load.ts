// autocannon for the throughput rows, with the CPU time the shop's processes used meanwhile.
import autocannon from 'autocannon';
import { cpuMsOf } from './proc.ts';
import type { Round } from './stats.ts';

export type Target = Pick<autocannon.Options, 'requests' | 'headers' | 'method' | 'body' | 'overallRate' | 'connections'> & {
  path: string;
};

/** One autocannon run against `baseUrl`, with the CPU time the server (`pid` and its workers) used meanwhile. */
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
