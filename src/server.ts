import 'dotenv/config';
import cluster from 'node:cluster';
import { PREPARED_ENV, runPrimary } from './cluster.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './log.ts';

// The shop's entry point: one server process, or a primary that runs WEB_CONCURRENCY of them.
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  if (cluster.isPrimary && config.workers > 1) {
    runPrimary({ workers: config.workers, log, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
    return;
  }
  // Loaded only where it serves: the primary stays small.
  const { serve } = await import('./serve.ts');
  await serve(config, log, { prepare: process.env[PREPARED_ENV] !== 'true' });
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('The shop could not start:', err);
  }
  process.exit(1);
});
