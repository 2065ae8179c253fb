// The shop as production runs it: the command in the README's systemd unit, as a real process
// in its own process group, so a test can signal the whole group the way systemd does.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ProductionServer {
  baseUrl: string;
  port: number;
  /** This server's own DATA_DIR, a fresh temporary folder. */
  dataDir: string;
  /** The process the unit starts (with WEB_CONCURRENCY above 1, the primary). */
  pid: number;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM to the whole process group, as systemd's default KillMode sends it. */
  terminateGroup(): void;
  output(): string;
  /** Kills whatever is left and deletes the data directory. */
  cleanUp(): Promise<void>;
}

/** The ExecStart line of the README's systemd unit, split into program and arguments. */
export function documentedStartCommand(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const line = /^\s*ExecStart=(.+)$/m.exec(readme)?.[1];
  if (!line) throw new Error('README.md has no ExecStart= line');
  return line.trim().split(/\s+/);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export async function startProductionServer(env: Record<string, string> = {}): Promise<ProductionServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shop-prod-'));
  const [program, ...args] = documentedStartCommand();
  // The unit runs the compiled server: `npm test` builds it first; a single file run by hand needs `npm run build`.
  const script = args.find((a) => a.endsWith('.js'));
  if (script && !existsSync(path.join(ROOT, script))) throw new Error(`${script} is missing: run \`npm run build\` first`);
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'REDIS_URL',
    'SMTP_URL',
    'STRIPE_SECRET_KEY',
    'STRIPE_PUBLISHABLE_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'STRIPE_API_URL',
    'PUBLIC_URL',
  ]) {
    delete childEnv[name];
  }
  Object.assign(childEnv, {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    SESSION_SECRET: 'production-test-secret-0123456789abcdef',
    DOTENV_CONFIG_PATH: path.join(dataDir, 'no.env'),
    DOTENV_CONFIG_QUIET: 'true',
    ...env,
  });
  // /usr/bin/node in the unit is this machine's node; use the one running the tests.
  const child: ChildProcess = spawn(program === '/usr/bin/node' ? process.execPath : program!, args, {
    cwd: ROOT,
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let done = false;
  void exited.then(() => (done = true));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is already gone
    }
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ProductionServer = {
    baseUrl,
    port,
    dataDir,
    pid: child.pid!,
    exited,
    terminateGroup: () => killGroup('SIGTERM'),
    output: () => log,
    cleanUp: async () => {
      killGroup('SIGKILL');
      if (!done) await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !done) {
    try {
      if ((await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.cleanUp();
  throw new Error(`the shop did not start:\n${log}`);
}
