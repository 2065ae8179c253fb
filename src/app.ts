import express, { type Express, type RequestHandler } from 'express';
import type { Config } from './config.ts';
import { pingDb, type Db } from './db.ts';
import type { Services } from './services.ts';
import type { Logger } from './log.ts';
import { accountsApi } from './features/accounts/accounts.api.ts';
import { accountsPages } from './features/accounts/accounts.pages.ts';
import { ACCOUNT_MESSAGES, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './features/accounts/accounts.messages.ts';
import { privacyPages } from './features/privacy/privacy.pages.ts';
import { privacyRequestPages } from './features/admin/privacy/privacy-requests.pages.ts';
import { dashboardPages } from './features/accounts/dashboard.pages.ts';
import { passwordChangeGate } from './features/accounts/password-change-gate.ts';
import { checkoutApi } from './features/checkout/checkout.api.ts';
import { checkoutPages } from './features/checkout/checkout.pages.ts';
import { applicableCode } from './features/discounts/discount-uses.ts';
import { discountsPages } from './features/discounts/discounts.pages.ts';
import { sandboxApi } from './features/checkout/sandbox.api.ts';
import { webhookApi } from './features/checkout/webhook.api.ts';
import { isSandbox } from './features/payments/index.ts';
import { ordersApi } from './features/orders/orders.api.ts';
import { preorderCancelPages } from './features/orders/preorder-cancel.pages.ts';
import { endStaleSessions } from './features/accounts/session-validity.ts';
import { secondStepOnly } from './features/accounts/second-step.ts';
import { cartApi } from './features/cart/cart.api.ts';
import { cartPages } from './features/cart/cart.pages.ts';
import { catalogApi } from './features/catalog/catalog.api.ts';
import { catalogPages } from './features/catalog/catalog.pages.ts';
import { contactApi } from './features/contact/contact.api.ts';
import { contactPages } from './features/contact/contact.pages.ts';
import { crawlerRoutes, healthRoutes } from './features/ops/ops.routes.ts';
import { sessionApi } from './features/session/session.api.ts';
import { sitePages } from './features/site/site.pages.ts';
import type { Assets } from './web/assets.ts';
import { COVERS_URL } from './features/catalog/cover.ts';
import { csrfProtection, rejectCrossSite } from './web/csrf.ts';
import { handleErrors, notFound } from './web/error-handlers.ts';
import { BadRequest } from './web/errors.ts';
import { NO_PROBLEMS } from './web/form-problems.ts';
import { formatUsd, formatUsdDecimal, toCents } from './lib/money.ts';
import { pageLocals } from './web/locals.ts';
import { pageCache } from './web/page-cache.ts';
import { compressResponses } from './web/compression.ts';
import { securityHeaders } from './web/security.ts';
import { insecureCookieWarning, SESSION_COOKIE, sessionMiddleware, type SessionStore } from './web/session.ts';
import { builtAssets, publicFiles } from './web/static-files.ts';
import { headerFacts } from './features/session/header-facts.ts';
import { personalPages } from './web/session-presence.ts';
import { limitNewSessions, NEW_SESSIONS } from './web/session-limit.ts';
import { requestLog } from './web/request-log.ts';
import { scriptJson, useEta } from './web/views.ts';
import { longDate } from './lib/dates.ts';
import { MAX_EMAIL_LENGTH } from './lib/email.ts';
import { MAX_SEARCH_LENGTH } from './features/catalog/catalog.schemas.ts';
import { offerWords } from './features/catalog/preorder.rules.ts';
import type { BookDto } from './features/catalog/book.dto.ts';
import { CODE_MAX_LENGTH } from './features/discounts/discount.rules.ts';
import { adminPages } from './features/admin/access/admin.pages.ts';
import { twoFactorPages } from './features/admin/access/two-factor.pages.ts';
import { ordersListPages } from './features/admin/orders/orders-list.pages.ts';
import { inboxPages, inboxUnreadCount } from './features/admin/inbox/inbox.pages.ts';
import { packingPages } from './features/admin/orders/packing.pages.ts';
import { preordersPages } from './features/admin/preorders/preorders.pages.ts';
import { statusApi } from './features/admin/status/status.api.ts';
import { statusPages } from './features/admin/status/status.pages.ts';
import { exportsPages } from './features/admin/numbers/exports.pages.ts';
import { orderPages } from './features/admin/orders/order.pages.ts';
import { COVER_UPLOAD_PATH, coverPages } from './features/admin/books/covers.pages.ts';
import { uploadedFiles } from './features/covers/cover-files.ts';
import { coversOnOneDiskWarning } from './features/covers/store-choice.ts';
import { booksPages } from './features/admin/books/books.pages.ts';
import { settingsPages } from './features/admin/settings/settings.pages.ts';
import { backInStockPages, oneClickUnsubscribe } from './features/back-in-stock/back-in-stock.pages.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  sessions: SessionStore;
  log: Logger;
  assets: Assets;
  /** Built once by createServices (services.ts); serve.ts hands the same ones to the background sweep. */
  services: Services;
}

const BODY_LIMIT = '16kb';

/**
 * The shop's routes over services built elsewhere. No I/O happens here: serve.ts connects,
 * starts the catalogue watch and listens.
 */
export function createApp({ config, db, sessions, log, assets, services }: AppDeps): Express {
  const app = express();
  const { payments, catalog, accounts, orders, carts, contact, backInStock, twoFactor, inbox, systemStatus, checkout } = services;
  const security = {
    isProduction: config.isProduction,
    stripeEnabled: payments.name === 'stripe',
    coverOrigin: config.S3_PUBLIC_URL ? new URL(config.S3_PUBLIC_URL).origin : undefined,
  };
  const cookieWarning = insecureCookieWarning(config);
  if (cookieWarning) log.warn(cookieWarning);
  const coversWarning = coversOnOneDiskWarning(config);
  if (coversWarning) log.warn(coversWarning);

  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'simple');
  useEta(app, { cache: config.isProduction });
  // Defaults for pages rendered before pageLocals runs (an error early in the stack).
  Object.assign(app.locals, {
    assets,
    scriptJson,
    longDate,
    // What a catalogue card offers for its book on the shop's day (Add to Cart, Pre-order or neither).
    offerOf: (book: BookDto) => offerWords(catalog.offerOf(book)),
    user: null,
    cartCount: 0,
    cartBadge: '0',
    flash: null,
    currentPath: '',
    csrfToken: () => '',
    hasSession: false,
    // A form's refusal (web/form-problems.ts); pages without one draw no summary.
    problems: NO_PROBLEMS,
    // Money as a parent reads it, "$2,099.00": cents, an API decimal, and a line's price times its quantity.
    formatUsd,
    usd: formatUsdDecimal,
    lineTotal: (price: string, quantity: number) => formatUsd(toCents(price) * quantity),
    // The servers' own limits, so that a form's maxlength and minlength never restate a number.
    limits: {
      email: MAX_EMAIL_LENGTH,
      passwordMin: MIN_PASSWORD_LENGTH,
      passwordMax: MAX_PASSWORD_LENGTH,
      search: MAX_SEARCH_LENGTH,
      discountCode: CODE_MAX_LENGTH,
    },
  });

  // How a request flows: logged, given the security headers, answered from the page cache or
  // as a file when it can be, compressed, and otherwise routed below.
  app.use(requestLog(log));
  app.use(pathsOnly);
  app.use(securityHeaders(security));
  app.use(pageCache({ shown: () => catalog.shown(), sessionCookie: SESSION_COOKIE }));
  app.use('/assets', builtAssets());
  app.use(publicFiles());
  app.use(COVERS_URL, uploadedFiles(services.coverStore));
  app.use(compressResponses());

  app.use(
    healthRoutes([
      { name: 'database', check: () => pingDb(db) },
      { name: 'sessions', check: () => sessions.ping() },
      // The bucket every server keeps covers in: a server that cannot reach it cannot show or take them.
      ...(services.coverStore.kind === 'bucket' ? [{ name: 'covers', check: () => services.coverStore.ping() }] : []),
    ]),
  );
  app.use(crawlerRoutes(catalog, config.publicUrl));
  app.use(webhookApi(payments, checkout, log));
  app.use(oneClickUnsubscribe(backInStock));

  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(express.urlencoded({ extended: false, limit: BODY_LIMIT }));
  app.use(sessionMiddleware(config, sessions.store));
  app.use(endStaleSessions(accounts));
  // A password alone is half a sign-in for an account with a second factor: only the code step and signing out.
  app.use(secondStepOnly(accounts));
  // A change from a visitor without a session stores one: limited per client address before
  // the form token is put in it.
  app.use(rejectCrossSite, limitNewSessions(services.limits('new-session-client', NEW_SESSIONS)));
  app.use(csrfProtection({ multipartForms: [COVER_UPLOAD_PATH] }));

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
  app.use(sitePages(catalog, log));
  app.use(accountsPages(accounts, carts));
  app.use(dashboardPages(accounts, orders, carts, services.preorderCancel));
  app.use(privacyPages(services.privacy, sessions));
  app.use(preorderCancelPages(services.preorderCancel));
  app.use(checkoutPages({ carts, accounts, orders, payments, checkCode: (code, subtotal) => applicableCode(db, code, subtotal) }));
  app.use(catalogPages(catalog, log, config.publicUrl));
  app.use(cartPages(carts));
  app.use(contactPages(contact, { contactEmail: config.contactEmail }));
  app.use(backInStockPages(backInStock));
  app.use(twoFactorPages(twoFactor, accounts, carts));
  app.use('/admin', inboxUnreadCount(inbox));
  app.use(adminPages());
  app.use(ordersListPages(services.ordersList));
  app.use(packingPages(services.packing));
  app.use(preordersPages(services.preorderTitles, services.shopDay));
  app.use(inboxPages(inbox));
  app.use(statusPages(systemStatus, services.numbers));
  app.use(exportsPages(services.exports));
  app.use(booksPages(services.bookAdmin, db));
  app.use(settingsPages(db));
  app.use(privacyRequestPages(services.privacy, sessions));
  app.use(discountsPages(services.discountAdmin));
  app.use(orderPages({ details: services.orderDetails, fulfilment: services.fulfilment, refunds: services.refunds }));

  app.use(coverPages(services.covers));

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
