import 'dotenv/config';
import cluster from 'node:cluster';
import { PREPARED_ENV, runPrimary } from './cluster.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger, flushLog, type Logger } from './log.ts';

// The shop's entry point: one server process, or a primary that runs WEB_CONCURRENCY of them.
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  exitOnUnhandled(log);
  if (cluster.isPrimary && config.workers > 1) {
    runPrimary({ workers: config.workers, log, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
    return;
  }
  // Loaded only where it serves: the primary stays small.
  const { serve } = await import('./serve.ts');
  await serve(config, log, { prepare: process.env[PREPARED_ENV] !== 'true' });
}

/**
 * The last resort, for what no request can cause: a request's errors end in the app's error
 * handler. Past an error nothing caught, the process's state is unknown, so it says why and
 * exits for systemd (or the primary) to start a fresh one.
 */
function exitOnUnhandled(log: Logger): void {
  let exiting = false;
  const exit = (err: unknown, what: string) => {
    log.fatal({ err }, what);
    if (exiting) return;
    exiting = true;
    process.exitCode = 1;
    // fatal writes its line at once; the flush is for lines still buffered before it, the timer
    // for a flush that never ends (stdout gone).
    setTimeout(() => process.exit(1), 1000);
    void flushLog(log).then(() => process.exit(1));
  };
  process.on('uncaughtException', (err) => exit(err, 'uncaught exception; exiting'));
  process.on('unhandledRejection', (reason) => exit(reason, 'unhandled promise rejection; exiting'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('The shop could not start:', err);
  }
  process.exit(1);
});
