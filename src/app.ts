import express, { type Express, type RequestHandler } from 'express';
import type { Config } from './config.ts';
import { isMySql, pingDb, type Db } from './db.ts';
import type { Logger } from './log.ts';
import { accountsApi } from './features/accounts/accounts.api.ts';
import { accountsPages } from './features/accounts/accounts.pages.ts';
import { createAccountsService } from './features/accounts/accounts.service.ts';
import { ACCOUNT_MESSAGES } from './features/accounts/accounts.messages.ts';
import { dashboardPages } from './features/accounts/dashboard.pages.ts';
import { passwordChangeGate } from './features/accounts/password-change-gate.ts';
import type { Mailer } from './features/mail/mailer.ts';
import { checkoutApi } from './features/checkout/checkout.api.ts';
import { checkoutPages } from './features/checkout/checkout.pages.ts';
import { applicableCode } from './features/discounts/discount-uses.ts';
import { discountsPages } from './features/discounts/discounts.pages.ts';
import { createDiscountAdmin } from './features/discounts/discount-admin.ts';
import { createCheckoutService } from './features/checkout/checkout.service.ts';
import { sandboxApi } from './features/checkout/sandbox.api.ts';
import { webhookApi } from './features/checkout/webhook.api.ts';
import { isSandbox } from './features/payments/index.ts';
import type { PaymentProvider } from './features/payments/provider.ts';
import { ordersApi } from './features/orders/orders.api.ts';
import { createOrdersService } from './features/orders/orders.service.ts';
import { createLimits, type LimitsOptions } from './web/throttle.ts';
import { createDeferred, type Deferred } from './lib/deferred.ts';
import { endStaleSessions } from './features/accounts/session-validity.ts';
import { cartApi } from './features/cart/cart.api.ts';
import { cartPages } from './features/cart/cart.pages.ts';
import { createCartService } from './features/cart/cart.service.ts';
import { catalogApi } from './features/catalog/catalog.api.ts';
import { catalogPages } from './features/catalog/catalog.pages.ts';
import { createCatalogService } from './features/catalog/catalog.service.ts';
import { contactApi } from './features/contact/contact.api.ts';
import { contactPages } from './features/contact/contact.pages.ts';
import { createContactService } from './features/contact/contact.service.ts';
import { createShopNotifications } from './features/mail/shop-notifications.ts';
import { crawlerRoutes, healthRoutes } from './features/ops/ops.routes.ts';
import { sessionApi } from './features/session/session.api.ts';
import { sitePages } from './features/site/site.pages.ts';
import type { Assets } from './web/assets.ts';
import { COVERS_URL } from './features/catalog/cover.ts';
import { csrfProtection, rejectCrossSite } from './web/csrf.ts';
import { handleErrors, notFound } from './web/error-handlers.ts';
import { BadRequest } from './web/errors.ts';
import { pageLocals } from './web/locals.ts';
import { pageCache } from './web/page-cache.ts';
import { compressResponses } from './web/compression.ts';
import { securityHeaders } from './web/security.ts';
import { insecureCookieWarning, SESSION_COOKIE, sessionMiddleware, type SessionStore } from './web/session.ts';
import { builtAssets, publicFiles } from './web/static-files.ts';
import { headerFacts } from './features/session/header-facts.ts';
import { usePasswordCost } from './features/accounts/passwords.ts';
import { personalPages } from './web/session-presence.ts';
import { requestLog } from './web/request-log.ts';
import { watchCatalogue } from './features/catalog/catalogue-watch.ts';
import { scriptJson, useEta } from './web/views.ts';
import { longDate } from './lib/dates.ts';
import { adminPages } from './features/admin/admin.pages.ts';
import { createTwoFactor } from './features/admin/two-factor.ts';
import { twoFactorPages } from './features/admin/two-factor.pages.ts';
import { ordersListPages } from './features/admin/orders-list.pages.ts';
import { createOrdersList } from './features/admin/orders-list.service.ts';
import { inboxPages, inboxUnreadCount } from './features/admin/inbox.pages.ts';
import { createInbox } from './features/admin/inbox.service.ts';
import { packingPages } from './features/admin/packing.pages.ts';
import { createPacking } from './features/admin/packing.service.ts';
import { createSystemStatus } from './features/admin/system-status.ts';
import { statusApi } from './features/admin/status.api.ts';
import { statusPages } from './features/admin/status.pages.ts';
import { createNumbers } from './features/admin/numbers.service.ts';
import { exportsPages } from './features/admin/exports.pages.ts';
import { createExports } from './features/admin/exports.service.ts';
import { orderPages } from './features/admin/order.pages.ts';
import { createFulfilment } from './features/admin/fulfilment.ts';
import { createOrderRefunds } from './features/admin/order-refunds.ts';
import { createOrderDetails } from './features/admin/order-details.ts';
import { COVER_UPLOAD_PATH, coverPages } from './features/admin/covers.pages.ts';
import { coversDir, createCovers } from './features/admin/covers.service.ts';
import { uploadedFiles } from './web/uploaded-files.ts';
import { booksPages } from './features/admin/books.pages.ts';
import { createBookAdmin } from './features/admin/books.service.ts';
import { settingsPages } from './features/admin/settings.pages.ts';
import { backInStockPages, oneClickUnsubscribe } from './features/back-in-stock/back-in-stock.pages.ts';
import { createBackInStock } from './features/back-in-stock/back-in-stock.service.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  sessions: SessionStore;
  log: Logger;
  assets: Assets;
  mailer: Mailer;
  payments: PaymentProvider;
  throttles?: Omit<LimitsOptions, 'db' | 'redis'>;
  /** Work done after answering (reset links); tests wait for it. */
  later?: Deferred;
}

const BODY_LIMIT = '16kb';

/** Builds the whole shop. No I/O happens here; server.ts connects and listens. */
export function createApp({
  config,
  db,
  sessions,
  log,
  assets,
  mailer,
  payments,
  throttles,
  later = createDeferred((err) => log.error({ err }, 'background work failed')),
}: AppDeps): Express {
  const app = express();
  // The embedded SQLite file takes one server process (config.ts): only its own changes need telling at once.
  const catalogue = watchCatalogue({ db, redis: sessions.redis, soleServer: !isMySql(db) });
  const security = { isProduction: config.isProduction, stripeEnabled: payments.name === 'stripe' };
  const limits = createLimits({ ...throttles, db, redis: sessions.redis });
  const catalog = createCatalogService(db, catalogue);
  const accounts = createAccountsService({ db, mailer, limits, later, publicUrl: config.publicUrl });
  const orders = createOrdersService(db);
  const carts = createCartService(db);
  const contact = createContactService({
    db,
    mailer,
    limits,
    notify: createShopNotifications({ mailer, notifyEmail: config.SHOP_NOTIFY_EMAIL, publicUrl: config.publicUrl }),
  });
  const backInStock = createBackInStock({ db, mailer, limits, secret: config.SESSION_SECRET, publicUrl: config.publicUrl });
  const twoFactor = createTwoFactor({ db, limits });
  const inbox = createInbox(db);
  const systemStatus = createSystemStatus({ db, payments, mailer, config });
  const checkout = createCheckoutService({
    db,
    carts,
    payments,
    mailer,
    log,
    publicUrl: config.publicUrl,
    notifyEmail: config.SHOP_NOTIFY_EMAIL,
  });

  usePasswordCost(config.PASSWORD_HASH_COST);
  const cookieWarning = insecureCookieWarning(config);
  if (cookieWarning) log.warn(cookieWarning);

  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'simple');
  useEta(app, { cache: config.isProduction });
  // Defaults for pages rendered before pageLocals runs (an error early in the stack).
  Object.assign(app.locals, {
    assets,
    scriptJson,
    longDate,
    user: null,
    cartCount: 0,
    cartBadge: '0',
    flash: null,
    currentPath: '',
    csrfToken: () => '',
    hasSession: false,
  });

  // How a request flows: logged, given the security headers, answered from the page cache or
  // as a file when it can be, compressed, and otherwise routed below.
  app.use(requestLog(log));
  app.use(pathsOnly);
  app.use(securityHeaders(security));
  app.use(pageCache({ watch: catalogue, sessionCookie: SESSION_COOKIE }));
  app.use('/assets', builtAssets());
  app.use(publicFiles());
  app.use(COVERS_URL, uploadedFiles(coversDir(config.uploadsDir)));
  app.use(compressResponses());

  app.use(
    healthRoutes([
      { name: 'database', check: () => pingDb(db) },
      { name: 'sessions', check: () => sessions.ping() },
    ]),
  );
  app.use(crawlerRoutes(catalog, config.publicUrl));
  app.use(webhookApi(payments, checkout, log));
  app.use(oneClickUnsubscribe(backInStock));

  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(express.urlencoded({ extended: false, limit: BODY_LIMIT }));
  app.use(sessionMiddleware(config, sessions.store));
  app.use(endStaleSessions(accounts));
  app.use(rejectCrossSite, csrfProtection({ multipartForms: [COVER_UPLOAD_PATH] }));

  const api = express.Router();
  api.use(noStore);
  api.use(sessionApi());
  api.use(catalogApi(catalog));
  api.use(cartApi(carts));
  api.use(accountsApi(accounts, carts));
  api.use(ordersApi(orders, payments));
  api.use(checkoutApi(checkout, accounts, carts));
  if (isSandbox(payments)) api.use(sandboxApi(payments, checkout, db));
  api.use(contactApi(contact));
  api.use(statusApi(systemStatus, accounts));
  api.use((_req, _res, next) => next(notFoundError()));
  app.use('/api', api);

  app.use(pageLocals({ headerFacts: headerFacts({ accounts, carts }), loggedOut: ACCOUNT_MESSAGES.loggedOut }));
  app.use(personalPages);
  app.use(passwordChangeGate);
  app.use(sitePages(catalog));
  app.use(accountsPages(accounts, carts));
  app.use(dashboardPages(accounts, orders, carts));
  app.use(checkoutPages({ carts, accounts, orders, payments, checkCode: (code, subtotal) => applicableCode(db, code, subtotal) }));
  app.use(catalogPages(catalog, log, config.publicUrl));
  app.use(cartPages(carts));
  app.use(contactPages(contact));
  app.use(backInStockPages(backInStock));
  app.use(twoFactorPages(twoFactor, accounts));
  app.use('/admin', inboxUnreadCount(inbox));
  app.use(adminPages());
  app.use(ordersListPages(createOrdersList(db)));
  app.use(packingPages(createPacking(db)));
  app.use(inboxPages(inbox));
  app.use(statusPages(systemStatus, createNumbers(db)));
  app.use(exportsPages(createExports(db)));
  app.use(booksPages(createBookAdmin(db, backInStock), db));
  app.use(settingsPages(db));
  app.use(discountsPages(createDiscountAdmin(db)));
  app.use(
    orderPages({
      details: createOrderDetails({ db, payments }),
      fulfilment: createFulfilment({ db, mailer, publicUrl: config.publicUrl }),
      refunds: createOrderRefunds({ db, payments, mailer }),
    }),
  );

  app.use(coverPages(createCovers({ db, uploadsDir: config.uploadsDir })));

  app.use(notFound);
  app.use(handleErrors(log));
  return app;
}

// The shop serves paths: a request for `*` (or any target not starting with '/') names
// nothing here, and express-session, among others, would give it no session.
const pathsOnly: RequestHandler = (req, _res, next) => {
  next(req.path.startsWith('/') ? undefined : new BadRequest('The request target must be a path.'));
};

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

function notFoundError() {
  return Object.assign(new Error('Not found'), { status: 404, expose: true });
}
