// One process closing while keep-alive clients send requests back to back, as SIGTERM finds
// a single shop process (no cluster primary holding the port): every request a client got
// onto a connection is answered in full; a client may only be refused a connection.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gracefulCloser } from '../../src/web/graceful-close.ts';

type Outcome = 'answered' | 'refused' | `failed: ${string}`;

function send(agent: Agent, port: number, n: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: `/books?n=${n}`, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(res.statusCode === 200 && body === `book ${n}` ? 'answered' : `failed: ${res.statusCode} ${body}`));
      res.on('error', (err) => resolve(`failed: ${err.message}`));
    });
    // Refused: the port was closed before the connection was made, so nothing was sent.
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNREFUSED' ? 'refused' : `failed: ${err.code ?? err.message}`),
    );
    req.end();
  });
}

/** Like a proxy's connection to the shop: one request after another until it is refused. */
async function client(port: number, answeredOnce: () => void): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const outcomes: Outcome[] = [];
  for (let n = 0; outcomes.at(-1) === undefined || outcomes.at(-1) === 'answered'; n += 1) {
    outcomes.push(await send(agent, port, n));
    answeredOnce();
  }
  agent.destroy();
  return outcomes;
}

async function shop(): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    // Answers take a little while, as a page from the database does.
    setTimeout(() => res.end(`book ${new URL(req.url ?? '/', 'http://shop').searchParams.get('n')}`), Math.random() * 4);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

// Visitors (another process) who connect and send a request while the shop's process is busy:
// the system queues their connections until the process next looks. Resolves with what each
// visitor received, once the process is free again.
function visitorsWhileBusy(port: number, count: number): Promise<string[]> {
  const sentFile = path.join(mkdtempSync(path.join(tmpdir(), 'shop-drain-')), 'sent');
  const script = `
    const net = require('node:net');
    const fs = require('node:fs');
    const answers = [];
    let sent = 0;
    for (let i = 0; i < ${count}; i += 1) {
      let answer = '';
      const socket = net.connect(${port}, '127.0.0.1', () =>
        socket.write('GET /books?n=visitor HTTP/1.1\\r\\nHost: shop\\r\\n\\r\\n', () => {
          if ((sent += 1) === ${count}) fs.writeFileSync(${JSON.stringify(sentFile)}, '');
        }));
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('error', (err) => (answer += ' ' + err.code));
      socket.on('close', () => answers.push(answer) === ${count} && console.log(JSON.stringify(answers)));
    }`;
  const child = spawn(process.execPath, ['-e', script]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const answers = new Promise<string[]>((resolve) => child.on('exit', () => resolve(JSON.parse(output || '[]') as string[])));
  // Busy: the event loop does not run until every visitor has sent its request.
  const giveUpAt = Date.now() + 10_000;
  while (!existsSync(sentFile) && Date.now() < giveUpAt);
  return answers;
}

/** Clients whose first request was answered, so their keep-alive connections are open. */
function warmClients(port: number, count: number): { running: Promise<Outcome[]>[]; warm: Promise<unknown> } {
  const answered: Promise<void>[] = [];
  const running = Array.from({ length: count }, () => {
    let first!: () => void;
    answered.push(new Promise<void>((resolve) => (first = resolve)));
    return client(port, () => first());
  });
  return { running, warm: Promise.all(answered) };
}

describe('closing a single server process under keep-alive load', () => {
  it('answers every request that reached it, connections queued while it was busy included, round after round', async () => {
    for (let round = 0; round < 8; round += 1) {
      const { server, port } = await shop();
      const close = gracefulCloser(server);
      const { running, warm } = warmClients(port, 20);
      await warm;
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 60));
      const visitors = visitorsWhileBusy(port, 5);
      // The signal comes while their connections wait in the queue.
      const closed = close();
      const outcomes = (await Promise.all(running)).flat();
      await closed;
      const answers = await visitors;
      expect(
        answers.filter((a) => !/^HTTP\/1\.1 200 [\s\S]*book visitor$/.test(a)),
        `round ${round}`,
      ).toEqual([]);
      expect(answers).toHaveLength(5);
      expect(
        outcomes.filter((o) => o.startsWith('failed')),
        `round ${round}`,
      ).toEqual([]);
      expect(outcomes.filter((o) => o === 'answered').length).toBeGreaterThan(20);
    }
  }, 60_000);
});
