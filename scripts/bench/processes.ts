// The processes a benchmark run starts and always stops: the shop as an operator runs it, the
// two reference servers, and a throwaway MariaDB + Redis from .ci/services.sh.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config.ts';
import { documentedStartCommand, freePort } from '../../test/helpers/production-server.ts';
import { processTree } from './proc.ts';

export interface Running {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

export interface Shop extends Running {
  /** How many processes serve: one, or a primary's workers (the primary serves nothing). */
  workers: number;
  /** Where the shop's stdout and stderr go. */
  logFile: string;
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

async function untilAnswering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${url} did not answer:\n${output()}`);
}

/** Until the primary has started all its workers: they start once the first has migrated and listens. */
async function untilProcesses(child: ChildProcess, count: number, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (processTree(child.pid!).length < count) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the shop did not start ${count} processes:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function track(child: ChildProcess): () => string {
  let log = '';
  const keep = (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-10_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => log;
}

function tailOf(file: string): string {
  return readFileSync(file, 'utf8').slice(-10_000);
}

/** The README's systemd unit's ExecStart, with this machine's node for /usr/bin/node. */
export function startCommand(): string[] {
  const [program, ...args] = documentedStartCommand();
  if (path.basename(program ?? '') !== 'node') throw new Error(`the systemd unit runs ${program}, not node`);
  return args;
}

/**
 * The shop as an operator runs it: the unit's command in production mode, on a fresh data
 * directory, with the default log level and number of processes unless `env` sets them, its
 * stdout and stderr appended to `logFile` as a journal or a redirect would take them.
 */
export async function startShop(env: Record<string, string>, logFile: string): Promise<Shop> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const shopEnv = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-secret-0123456789abcdef0123456789',
    ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
    TRUST_PROXY: '1',
    DOTENV_CONFIG_PATH: path.join(dataDir, 'no.env'),
    DOTENV_CONFIG_QUIET: 'true',
    ...env,
  };
  // The shop's own rule for how many processes it runs.
  const { workers } = loadConfig(shopEnv);
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, startCommand(), { env: shopEnv, stdio: ['ignore', log, log] });
  closeSync(log);
  const output = () => tailOf(logFile);
  await untilAnswering(`${baseUrl}/healthz`, child, output);
  await untilProcesses(child, workers > 1 ? workers + 1 : 1, output);
  return { ...running(child, baseUrl, () => rmSync(dataDir, { recursive: true, force: true })), workers, logFile };
}

/** Lines and MB the shop has written to its log file so far. */
export async function logSize(file: string): Promise<{ lines: number; mb: number }> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
  }
  return { lines, mb: statSync(file).size / 1024 / 1024 };
}

export async function startReference(mode: 'bare' | 'static', file: string): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/reference-server.ts', mode, file, String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await untilAnswering(`${baseUrl}/${path.basename(file)}`, child, track(child));
  return running(child, baseUrl);
}

/** A started server: stopping it sends SIGTERM, waits for the exit, then cleans up after it. */
function running(child: ChildProcess, baseUrl: string, cleanUp: () => void = () => {}): Running {
  return {
    pid: child.pid!,
    baseUrl,
    stop: async () => {
      child.kill('SIGTERM');
      await exitOf(child);
      cleanUp();
    },
  };
}

export interface Services {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** MariaDB and Redis on free ports, by .ci/services.sh as CI starts them; stopped when stdin closes. */
export async function startServices(): Promise<Services> {
  const [mariadbPort, redisPort] = [await freePort(), await freePort()];
  const script =
    'source .ci/services.sh && start_services >&2 && echo "$CI_DATABASE_URL" && echo "$CI_REDIS_URL" && read -r _; stop_services >&2';
  const child = spawn('bash', ['-c', script], {
    env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin`, CI_MARIADB_PORT: String(mariadbPort), CI_REDIS_PORT: String(redisPort) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = track(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const databaseUrl = (await lines.next()).value as string | undefined;
  const redisUrl = (await lines.next()).value as string | undefined;
  if (!databaseUrl || !redisUrl) throw new Error(`MariaDB and Redis did not start:\n${output()}`);
  return {
    databaseUrl,
    redisUrl,
    stop: async () => {
      child.stdin.end('\n');
      await exitOf(child);
    },
  };
}
