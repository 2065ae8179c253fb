import type { Logger } from '../../log.ts';
import type { CheckoutService } from './checkout.service.ts';

/** How often each process sweeps; every step is safe when several processes sweep at once. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Runs the checkout sweep on a timer: expired holds go back to stock, abandoned payments are
 * canceled, and a paid payment without its order gets one. Returns a stop function that waits
 * for a sweep in progress.
 */
export function startCheckoutSweep(
  checkout: Pick<CheckoutService, 'sweep'>,
  log: Logger,
  intervalMs = SWEEP_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = checkout
      .sweep()
      .then(({ settled }) => {
        if (settled) log.info({ settled }, 'checkout sweep settled leftover checkouts');
      })
      .catch((err: unknown) => log.error({ err }, 'checkout sweep failed; retrying on the next tick'))
      .finally(() => {
        running = undefined;
      });
  };
  // A little jitter, so processes started together do not sweep in step.
  const timer = setInterval(run, intervalMs + Math.floor(Math.random() * intervalMs * 0.2));
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
