import cluster, { type Worker } from 'node:cluster';
import type { Logger } from './log.ts';

/**
 * The primary of WEB_CONCURRENCY server processes (node:cluster; they share the listening
 * port). It serves nothing itself: it starts the workers, replaces one that dies, and passes
 * SIGTERM on so that each finishes its in-flight requests.
 */

/** Set for workers started after the first one has migrated and seeded: they skip both. */
export const PREPARED_ENV = 'SHOP_WORKER_PREPARED';

/** The wait before replacing a worker after `failures` deaths in a row: 1 s, doubling, at most 30 s. */
export function restartDelayMs(failures: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
}

// A worker that served this long before dying was not part of a crash loop.
const STABLE_AFTER_MS = 60_000;
// Each worker gives up after SHUTDOWN_TIMEOUT_MS; the primary waits a little longer for them.
const SHUTDOWN_MARGIN_MS = 2000;

export interface PrimaryOptions {
  workers: number;
  log: Logger;
  shutdownTimeoutMs: number;
}

export function runPrimary({ workers, log, shutdownTimeoutMs }: PrimaryOptions): void {
  const startedAt = new Map<Worker, number>();
  // Migrations and the sample catalogue run once, in the first worker, before the others start.
  let prepared = false;
  let stopping = false;
  let failures = 0;
  let cleanExit = true;

  const fork = () => {
    const worker = cluster.fork(prepared ? { [PREPARED_ENV]: 'true' } : {});
    startedAt.set(worker, Date.now());
    worker.once('listening', () => {
      if (prepared) return;
      prepared = true;
      for (let i = 1; i < workers; i += 1) fork();
    });
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    if (stopping) {
      if (code !== 0) cleanExit = false;
      if (startedAt.size === 0) finish();
      return;
    }
    failures = lived > STABLE_AFTER_MS ? 1 : failures + 1;
    const restartInMs = restartDelayMs(failures);
    log.error({ worker: worker.process.pid, code, signal, restartInMs }, 'a worker stopped unexpectedly; starting another');
    setTimeout(() => {
      if (!stopping) fork();
    }, restartInMs);
  });

  const finish = () => {
    log.info({ clean: cleanExit }, 'stopped');
    process.exit(cleanExit ? 0 : 1);
  };

  const shutdown = (signal: string) => {
    // systemd signals the whole group (workers included) and a terminal may repeat it: act once.
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: startedAt.size }, 'shutting down: every worker finishes its in-flight requests');
    if (startedAt.size === 0) return finish();
    for (const worker of startedAt.keys()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      log.error('workers did not stop in time; exiting');
      for (const worker of startedAt.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownTimeoutMs + SHUTDOWN_MARGIN_MS).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  log.info({ workers }, 'starting the shop in several processes');
  fork();
}
