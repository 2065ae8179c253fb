// SIGTERM as systemd sends it (to the whole process group of the README's unit) while
// keep-alive connections carry requests: every request already sent gets its whole answer,
// answers given during shutdown close their connection, and the process exits 0.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, documentedStartCommand, startProductionServer, type ProductionServer } from '../helpers/production-server.ts';
import { redisServer } from '../helpers/service-process.ts';

interface Answer {
  status: number;
  connection: string | undefined;
}

function send(agent: Agent, port: number, method: string, path: string, body?: { first: string; rest: Promise<string> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = body
      ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body.first) + 2 }
      : {};
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) {
      req.write(body.first);
      void body.rest.then((rest) => req.end(rest));
    } else {
      req.end();
    }
  });
}

let shop: ProductionServer | undefined;
afterEach(async () => {
  await shop?.cleanUp();
  shop = undefined;
});

describe('graceful shutdown of the production process', () => {
  it('the README runs node itself, not a wrapper that would relay the signal', () => {
    expect(documentedStartCommand()[0]).toBe('/usr/bin/node');
  });

  it('production runs the compiled server with no loader (tsx held twice the memory), as npm start does', () => {
    expect(documentedStartCommand()).toEqual(['/usr/bin/node', '--max-semi-space-size=4', 'dist-server/src/server.js']);
    const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe('node --max-semi-space-size=4 dist-server/src/server.js');
    expect(scripts.serve).toBe(scripts.start);
    expect(scripts.build).toContain('build:server');
  });

  it('answers 100 requests in flight on keep-alive connections when the process group gets SIGTERM, then exits 0', async () => {
    shop = await startProductionServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 100 });
    // 100 open connections, idle between requests, as a busy reverse proxy keeps them.
    const warm = await Promise.all(Array.from({ length: 100 }, () => send(agent, shop!.port, 'GET', '/healthz')));
    expect(warm.every((a) => a.status === 200)).toBe(true);

    let finishBodies!: (rest: string) => void;
    const rest = new Promise<string>((resolve) => (finishBodies = resolve));
    const slow = Array.from({ length: 50 }, () => send(agent, shop!.port, 'POST', '/api/contact', { first: '{"a":', rest }));
    await new Promise((r) => setTimeout(r, 300)); // the server is now reading their bodies
    // Sent on reused connections in the same instant as the signal: the server may see them
    // only after shutdown has begun, and must still answer them.
    const racing = Array.from({ length: 50 }, (_, i) => send(agent, shop!.port, 'GET', i % 2 ? '/books' : '/healthz'));
    shop.terminateGroup();
    await new Promise((r) => setTimeout(r, 300));
    finishBodies('1}');

    const results = await Promise.allSettled([...slow, ...racing]);
    const failed = results.filter((r) => r.status === 'rejected' || r.value.status >= 500);
    expect(failed.map((r) => (r.status === 'rejected' ? String(r.reason) : r.value.status))).toEqual([]);
    // No CSRF token, so 403: a whole answer, given during shutdown, that closes its connection.
    for (const r of results.slice(0, 50)) {
      expect(r.status === 'fulfilled' && r.value).toEqual({ status: 403, connection: 'close' });
    }
    expect(await shop.exited).toEqual({ code: 0, signal: null });
    agent.destroy();
  });

  it('still exits 0 when Redis is already gone (an outage is often why it is restarted)', async () => {
    const redis = await redisServer();
    try {
      shop = await startProductionServer({ REDIS_URL: redis.url });
      await redis.stop();
      shop.terminateGroup();
      expect(await shop.exited).toEqual({ code: 0, signal: null });
    } finally {
      await redis.remove();
    }
  });
});
