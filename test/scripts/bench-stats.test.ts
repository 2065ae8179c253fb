import { describe, expect, it } from 'vitest';
import { markdownTable, median, ratio, summarise, type Round } from '../../scripts/bench/stats.ts';

const round = (requestsPerSecond: number, extra: Partial<Round> = {}): Round => ({
  requestsPerSecond,
  p50Ms: 1,
  p99Ms: 2,
  errors: 0,
  requests: requestsPerSecond * 5,
  cpuMs: undefined,
  ...extra,
});

describe('benchmark summaries', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });

  it('summarises rounds as min, median and max throughput, median latencies, total errors and CPU per request', () => {
    const summary = summarise([
      round(100, { p50Ms: 5, p99Ms: 30, errors: 1, requests: 500, cpuMs: 1000 }),
      round(300, { p50Ms: 2, p99Ms: 10, requests: 1500, cpuMs: 1500 }),
      round(200, { p50Ms: 3, p99Ms: 20, errors: 2, requests: 1000, cpuMs: 1500 }),
    ]);
    expect(summary).toEqual({ rps: { min: 100, median: 200, max: 300 }, p50Ms: 3, p99Ms: 20, errors: 3, cpuMsPerRequest: 1.5 });
    expect(summarise([round(10)]).cpuMsPerRequest).toBeUndefined();
  });

  it('compares median throughputs with a reference measured in the same run', () => {
    expect(ratio(summarise([round(30)]), summarise([round(100)]))).toBe('0.30x');
    expect(ratio(summarise([round(30)]), undefined)).toBe('-');
  });

  it('writes one table row per scenario with both ratios', () => {
    const bare = summarise([round(1000)]);
    const table = markdownTable(
      [{ setup: 'SQLite', scenario: 'GET /books', summary: summarise([round(250, { cpuMs: 2500, requests: 1250 })]) }],
      { bare, static: summarise([round(500)]) },
    );
    const [header, rule, row] = table.split('\n');
    expect(header).toContain('req/s min / median / max');
    expect(rule).toMatch(/^\|(---\|){9}$/);
    expect(row).toBe('| SQLite | GET /books | 250 / 250 / 250 | 1.0 | 2.0 | 0.25x | 0.50x | 2.000 | 0 |');
  });
});
