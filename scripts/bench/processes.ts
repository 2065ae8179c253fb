// The processes a benchmark run starts and always stops: the shop in production mode, the two
// reference servers, and a throwaway MariaDB + Redis from .ci/services.sh.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../../test/helpers/production-server.ts';

export interface Running {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
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

function track(child: ChildProcess): () => string {
  let log = '';
  const keep = (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-10_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => log;
}

/** `npm start`'s arguments to node: the bench runs the shop exactly as production does. */
function startCommand(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const [program, ...args] = scripts.start.split(/\s+/);
  if (program !== 'node') throw new Error(`npm start runs ${program}, not node`);
  return args;
}

/** The shop as production runs it (the compiled server, one process), on a fresh data directory. */
export async function startShop(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-bench-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, startCommand(), {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'bench-secret-0123456789abcdef0123456789',
      ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: 'true',
      TRUST_PROXY: '1',
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'warn',
      DOTENV_CONFIG_PATH: path.join(dataDir, 'no.env'),
      DOTENV_CONFIG_QUIET: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await untilAnswering(`${baseUrl}/healthz`, child, track(child));
  return running(child, baseUrl, () => rmSync(dataDir, { recursive: true, force: true }));
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
