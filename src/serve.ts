import { createServer } from 'node:http';
import { createPaymentProvider } from './features/payments/index.ts';
import { createApp } from './app.ts';
import { behindProxy, type Config } from './config.ts';
import { connectDb, isMySql, migrateLatest } from './db.ts';
import { flushLog, type Logger } from './log.ts';
import { loadAssets } from './web/assets.ts';
import { openSessionStore } from './web/session.ts';
import { createMailer } from './features/mail/mailer.ts';
import { watchCatalogue } from './features/catalog/catalogue-watch.ts';
import { startCheckoutSweep } from './features/checkout/checkout-sweep.ts';
import { createDataRetention, startRetentionSweep } from './features/privacy/data-retention.ts';
import type { CheckoutService } from './features/checkout/checkout.service.ts';
import type { OrderRefunds } from './features/admin/orders/order-refunds.ts';
import type { PreorderRelease } from './features/admin/orders/preorder-release.ts';
import { createDeferred } from './lib/deferred.ts';
import { createServices } from './services.ts';
import { gracefulCloser } from './web/graceful-close.ts';
import { dayIn } from './lib/dates.ts';
import { seedCatalogue } from '../seeds/books.ts';

/**
 * One server process, the only code that connects and listens, and the one place that builds
 * the shop's services: the routes and the background sweep are handed the same ones.
 * `prepare` migrates the database and seeds an empty catalogue first; of several processes
 * only the first does.
 */
export async function serve(config: Config, log: Logger, { prepare }: { prepare: boolean }): Promise<void> {
  const db = connectDb({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, log });
  if (prepare) await migrateLatest(db);
  if (prepare && config.SEED_CATALOGUE) {
    const seeded = await seedCatalogue(db, dayIn(config.SHOP_TIME_ZONE));
    if (seeded) log.info({ books: seeded }, 'seeded an empty catalogue');
  }
  const sessions = await openSessionStore(config, db, { log });
  const mailer = createMailer({ db, config, log });
  mailer.start();
  // The embedded SQLite file takes one server process (config.ts): only its own changes need telling at once.
  const catalogue = watchCatalogue({ db, redis: sessions.redis, soleServer: !isMySql(db), log });
  const services = createServices({
    config,
    db,
    log,
    mailer,
    payments: createPaymentProvider({ config, db }),
    catalogue,
    redis: sessions.redis,
    later: createDeferred((err) => log.error({ err }, 'background work failed')),
  });
  const { checkout, refunds, preorderRelease } = services;
  const app = createApp({ config, db, sessions, log, assets: loadAssets(), services });
  const stopSweep = startCheckoutSweep(backgroundSweep({ checkout, refunds, preorderRelease }, log), log);
  const stopRetention = startRetentionSweep(createDataRetention({ db, contactMessageDays: config.CONTACT_MESSAGES_KEPT_DAYS }), log);

  const server = createServer(app).listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    log.info(
      { host: config.HOST, port, database: config.DATABASE_URL ? 'mysql' : 'sqlite', sessions: config.REDIS_URL ? 'redis' : 'sql' },
      `shop listening on http://${config.HOST}:${port}${config.HOST === '127.0.0.1' && behindProxy(config) ? ' (loopback only: TRUST_PROXY counts proxies, so only the local proxy may connect; set HOST to listen elsewhere)' : ''}`,
    );
  });

  const closeServer = gracefulCloser(server);
  let stopping = false;
  const shutdown = async (signal: string) => {
    // systemd signals the whole group and a terminal may repeat the signal: act on the first.
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    await closeServer();
    await stopSweep();
    await stopRetention();
    // Redis or the database may be the reason for the restart: a failed close is logged, not fatal.
    for (const [name, close] of [
      ['mail', () => mailer.stop()],
      ['sessions', () => sessions.close()],
      ['database', () => db.destroy()],
    ] as const) {
      await close().catch((err: unknown) => log.warn({ err }, `could not close ${name} cleanly`));
    }
    log.info('stopped');
    await flushLog(log);
    clearTimeout(timer);
    process.exit(0);
  };
  // Kept (not `once`): a second signal with no listener would kill the process mid-drain.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * One sweep: leftover checkouts, then refunds an operator started that were left in progress,
 * then the paid pre-orders whose books are out (the shop's day reached their publication date)
 * moved to To pack. Each step's failure is logged on its own and keeps no step from the next
 * minute's run.
 */
export function backgroundSweep(
  {
    checkout,
    refunds,
    preorderRelease,
  }: {
    checkout: Pick<CheckoutService, 'sweep'>;
    refunds: Pick<OrderRefunds, 'resumeStale'>;
    preorderRelease: Pick<PreorderRelease, 'release'>;
  },
  log: Logger,
): Pick<CheckoutService, 'sweep'> {
  return {
    sweep: async (now) => {
      const swept = await checkout.sweep(now).then(
        ({ settled }) => settled,
        (err: unknown) => {
          log.error({ err }, 'checkout sweep failed; retrying on the next tick');
          return 0;
        },
      );
      const resumed = await refunds.resumeStale(now).catch((err: unknown) => {
        log.error({ err }, 'could not resume refunds left in progress; retrying on the next tick');
        return 0;
      });
      const released = await preorderRelease.release().catch((err: unknown) => {
        log.error({ err }, 'could not move paid pre-orders to To pack; retrying on the next tick');
        return 0;
      });
      if (released) log.info({ released }, 'pre-orders whose books are out moved to To pack');
      return { settled: swept + resumed };
    },
  };
}
