import { describe, expect, it } from 'vitest';
import { errorsCell, markdownTable, median, percentile, ratio, summarise, type Round } from '../../scripts/bench/stats.ts';

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
    expect(summary).toEqual({
      rps: { min: 100, median: 200, max: 300 },
      p50Ms: 3,
      p99Ms: 20,
      errors: 3,
      errorKinds: {},
      cpuMsPerRequest: 1.5,
    });
    expect(summarise([round(10)]).cpuMsPerRequest).toBeUndefined();
  });

  it('takes the nearest-rank percentile', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 down to 1
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(() => percentile([], 50)).toThrow();
  });

  it('adds up errors by kind over the rounds and names them in the table', () => {
    const summary = summarise([
      round(100, { errors: 2, errorKinds: { '503': 1, ECONNRESET: 1 } }),
      round(100, { errors: 1, errorKinds: { '503': 1 } }),
      round(100),
    ]);
    expect(summary.errorKinds).toEqual({ '503': 2, ECONNRESET: 1 });
    expect(errorsCell(summary)).toBe('3 (2× 503, 1× ECONNRESET)');
    expect(errorsCell(summarise([round(100, { errors: 4 })]))).toBe('4');
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
