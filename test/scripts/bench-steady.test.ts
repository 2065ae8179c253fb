import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { steadyRound, type Visit } from '../../scripts/bench/steady.ts';

describe('steady traffic for the benchmark', () => {
  let server: http.Server;
  let baseUrl: string;
  const seen: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url === '/busy') {
        res.statusCode = 503;
        res.end();
        return;
      }
      // Every tenth request waits 60 ms, as a stalled answer would.
      setTimeout(() => res.end('ok'), seen.length % 10 === 0 ? 60 : 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('makes each visit in turn at the rate asked, its steps in order, and counts answers of 400 or more by status', async () => {
    const free = ['amara', 'ben', 'chloe'];
    let lentAndBack = 0;
    const visits: Visit[] = [
      () => ({ steps: [{ method: 'GET', path: '/page' }] }),
      () => {
        const visitor = free.pop();
        return visitor
          ? {
              steps: [
                { method: 'POST', path: '/cart', body: '{}' },
                { method: 'DELETE', path: '/cart/1' },
              ],
              done: () => void ((lentAndBack += 1), free.push(visitor)),
            }
          : undefined;
      },
      () => ({ steps: [{ method: 'GET', path: '/busy' }] }),
    ];
    seen.length = 0;
    const round = await steadyRound(baseUrl, process.pid, visits, { perSecond: 60, seconds: 1, connections: 4 });

    expect(round.requests).toBe(80); // 60 visits: 20 of one request, 20 of two, 20 of one
    expect(seen.filter((r) => r === 'POST /cart')).toHaveLength(20);
    expect(seen.indexOf('DELETE /cart/1')).toBeGreaterThan(seen.indexOf('POST /cart'));
    expect(lentAndBack).toBe(20);
    expect(round.errorKinds).toEqual({ '503': 20 });
    expect(round.errors).toBe(20);
    // The stalled answers are in the tail, not in the middle.
    expect(round.p99Ms).toBeGreaterThanOrEqual(60);
    expect(round.p50Ms).toBeLessThan(60);
  });
});
