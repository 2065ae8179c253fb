import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { admission } from '../../src/web/admission.ts';
import { handleErrors } from '../../src/web/error-handlers.ts';
import { createLogger } from '../../src/log.ts';

/** An app whose /work requests each wait until the test lets them finish. */
function appWith(atOnce: number, maxWaitMs: number) {
  const gate = admission({ atOnce, maxWaitMs, message: 'Many parents are paying right now. Please wait a moment and try again.' });
  const finishers: Array<() => void> = [];
  let started = 0;
  const app = express();
  app.post('/api/work', gate.handler, async (_req, res) => {
    started++;
    await new Promise<void>((resolve) => finishers.push(resolve));
    res.json({ done: true });
  });
  app.use(handleErrors(createLogger('silent')));
  return { app, gate, finish: () => finishers.shift()?.(), started: () => started };
}

/** Waits until `check` holds: requests reach the server in their own time on a busy machine. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}
const servers: http.Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

describe('admission of costly work', () => {
  it('works on a few at once; the next waits its turn and goes in when one ends', async () => {
    const { app, gate, finish, started } = appWith(2, 5000);
    const answers = [1, 2, 3].map(() =>
      supertest(app)
        .post('/api/work')
        .then((res) => res.status),
    );
    await until(() => started() === 2 && gate.counts().waiting === 1);
    expect(started()).toBe(2);
    expect(gate.counts()).toEqual({ working: 2, waiting: 1 });
    finish();
    await until(() => started() === 3);
    expect(started()).toBe(3);
    finish();
    finish();
    expect(await Promise.all(answers)).toEqual([200, 200, 200]);
    await until(() => gate.counts().working === 0);
    expect(gate.counts()).toEqual({ working: 0, waiting: 0 });
  });

  it('asks one that waited too long to try again in a moment: 429, Retry-After and words a parent can read', async () => {
    const { app, gate, finish, started } = appWith(1, 50);
    const first = supertest(app).post('/api/work');
    const firstAnswer = first.then((res) => res.status);
    await until(() => started() === 1);
    const refused = await supertest(app).post('/api/work').expect(429);
    expect(refused.body).toEqual({ message: 'Many parents are paying right now. Please wait a moment and try again.' });
    expect(refused.headers['retry-after']).toBe('5');
    expect(started()).toBe(1);
    finish();
    expect(await firstAnswer).toBe(200);
    await until(() => gate.counts().working === 0);
    expect(gate.counts()).toEqual({ working: 0, waiting: 0 });
  });

  it('gives up the place of a client that goes away while it waits, and the turn of one that goes away while served', async () => {
    const { app, gate, finish } = appWith(1, 5000);
    const server = app.listen(0);
    servers.push(server);
    const { port } = server.address() as AddressInfo;
    const send = () => {
      const req = http.request({ port, method: 'POST', path: '/api/work' });
      req.on('error', () => {});
      req.end();
      return req;
    };
    const served = send();
    await until(() => gate.counts().working === 1);
    const waiter = send();
    await until(() => gate.counts().waiting === 1);
    expect(gate.counts()).toEqual({ working: 1, waiting: 1 });
    waiter.destroy();
    await until(() => gate.counts().waiting === 0);
    expect(gate.counts()).toEqual({ working: 1, waiting: 0 });
    served.destroy();
    await until(() => gate.counts().working === 0);
    expect(gate.counts()).toEqual({ working: 0, waiting: 0 });
    finish();
  });
});
