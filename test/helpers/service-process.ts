// A Redis or MariaDB server of a test's own, on a free port, that the test can stop, pause
// and start again to play an outage. Data lives in a temp directory deleted at the end.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './production-server.ts';

export interface ServiceProcess {
  url: string;
  start(): Promise<void>;
  /** Stops the server and waits for it to exit: connections are refused from now on. */
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: the server keeps its connections but answers nothing. */
  pause(): void;
  resume(): void;
  remove(): Promise<void>;
}

async function until(ready: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`${what} did not become ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function supervised(command: string, args: string[], isReady: () => boolean, name: string) {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    child = spawn(command, args, { stdio: 'ignore' });
    exited = new Promise((resolve) => child!.once('exit', () => resolve()));
    await until(isReady, name);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    await exited;
  };
  return {
    start,
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
  };
}

export async function redisServer(): Promise<ServiceProcess> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-redis-'));
  const ping = () => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG';
  const server = supervised(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir],
    ping,
    'redis-server',
  );
  await server.start();
  return {
    url: `redis://127.0.0.1:${port}`,
    ...server,
    remove: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** MariaDB with a `shop` database and user; the data directory survives stop() and start(). */
export async function mariadbServer(): Promise<ServiceProcess> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-mariadb-'));
  const root = process.getuid?.() === 0 ? ['--user=root'] : [];
  const install = spawnSync(
    'mariadb-install-db',
    ['--no-defaults', ...root, `--datadir=${dir}/data`, '--auth-root-authentication-method=normal', '--skip-test-db'],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
  const socket = `${dir}/mysqld.sock`;
  const admin = (sql?: string) =>
    spawnSync(sql ? 'mariadb' : 'mariadb-admin', ['--no-defaults', `--socket=${socket}`, '-uroot', ...(sql ? ['-e', sql] : ['ping'])], {
      encoding: 'utf8',
    });
  const server = supervised(
    '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      ...root,
      `--datadir=${dir}/data`,
      `--socket=${socket}`,
      `--pid-file=${dir}/mysqld.pid`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=32M',
      '--innodb-flush-log-at-trx-commit=2',
      `--log-error=${dir}/error.log`,
    ],
    () => admin().status === 0,
    'mariadbd',
  );
  await server.start();
  const created = admin(
    "CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci; CREATE USER 'shop'@'127.0.0.1' IDENTIFIED BY 'shop'; GRANT ALL ON shop.* TO 'shop'@'127.0.0.1';",
  );
  if (created.status !== 0) throw new Error(`could not create the shop database: ${created.stderr}`);
  return {
    url: `mysql://shop:shop@127.0.0.1:${port}/shop`,
    ...server,
    remove: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
