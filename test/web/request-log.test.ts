import { Writable } from 'node:stream';
import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.ts';
import { requestLog, requestLogger } from '../../src/web/request-log.ts';

function logged(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestLog(createLogger(level, stream)));
  app.get('/healthz', (_req, res) => res.send('ok'));
  app.get('/boom', (req, res) => {
    requestLogger(req).error('the route failed');
    res.status(500).send('no');
  });
  app.use((_req, res) => res.status(404).send('none'));
  return { app, lines };
}

describe('the request log', () => {
  it('writes one line per answer with its id, method, redacted URL, status and time', async () => {
    const { app, lines } = logged('info');
    await supertest(app).get('/reset-password/secret-token-123?page=2').set('X-Request-Id', 'req-42').expect(404);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      req: { id: 'req-42', method: 'GET', url: '/reset-password/[Redacted]?page=2' },
      res: { statusCode: 404 },
    });
    expect(typeof lines[0]!.responseTime).toBe('number');
  });

  it('binds what a route logs to its request', async () => {
    const { app, lines } = logged('info');
    await supertest(app).get('/boom').expect(500);
    const failure = lines.find((line) => line.msg === 'the route failed');
    expect(failure).toMatchObject({ req: { method: 'GET', url: '/boom' } });
    expect((failure!.req as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves out health checks, and every line below its level', async () => {
    const quiet = logged('info');
    await supertest(quiet.app).get('/healthz').expect(200);
    expect(quiet.lines).toHaveLength(0);
    const warnOnly = logged('warn');
    await supertest(warnOnly.app).get('/books').expect(404);
    await supertest(warnOnly.app).get('/boom').expect(500);
    expect(warnOnly.lines.map((line) => line.msg)).toEqual(['the route failed']);
  });

  it.each([
    ['a plain id', 'req-42', true],
    ["a proxy's UUID", '0f8fad5b-d9cb-469f-a165-70867728950e', true],
    ['dots and underscores', 'lb.node_7.123', true],
    ['64 characters', 'a'.repeat(64), true],
    ['65 characters', 'a'.repeat(65), false],
    ['a space', 'req 42', false],
    ['a tab', 'req-42\tforged', false],
    ['a path', '../../etc', false],
    ['quotes and braces', '{"level":60}', false],
    ['letters beyond ASCII', 'réq-42', false],
    ['an empty value', '', false],
  ])("keeps a client's request id only when short and plain: %s", async (_name, given, kept) => {
    const { app, lines } = logged('info');
    await supertest(app).get('/boom').set('X-Request-Id', given).expect(500);
    const ids = lines.map((line) => (line.req as { id: string }).id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    if (kept) expect(ids[0]).toBe(given);
    else expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
