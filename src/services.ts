import type { Config } from './config.ts';
import type { Db } from './db.ts';
import type { Logger } from './log.ts';
import type { Deferred } from './lib/deferred.ts';
import { dayIn } from './lib/dates.ts';
import { createLimits, type LimitsOptions } from './web/throttle.ts';
import type { RedisClient } from './web/session.ts';
import { createAccountsService } from './features/accounts/accounts.service.ts';
import { usePasswordCost } from './features/accounts/passwords.ts';
import { createTwoFactor } from './features/admin/access/two-factor.ts';
import { createBookAdmin } from './features/admin/books/books.service.ts';
import { createCovers } from './features/admin/books/covers.service.ts';
import { linkCoversAt } from './features/catalog/cover.ts';
import { coverStoreFor } from './features/covers/store-choice.ts';
import { createInbox } from './features/admin/inbox/inbox.service.ts';
import { createExports } from './features/admin/numbers/exports.service.ts';
import { createNumbers } from './features/admin/numbers/numbers.service.ts';
import { createFulfilment } from './features/admin/orders/fulfilment.ts';
import { createOrderDetails } from './features/admin/orders/order-details.ts';
import { createOrderRefunds } from './features/admin/orders/order-refunds.ts';
import { createOrdersList } from './features/admin/orders/orders-list.service.ts';
import { createPacking } from './features/admin/orders/packing.service.ts';
import { createPreorderRelease, servePreordersAfterStock } from './features/admin/orders/preorder-release.ts';
import { createPreorderTitles } from './features/admin/preorders/preorder-titles.ts';
import { createSystemStatus } from './features/admin/status/system-status.ts';
import { createBackInStock } from './features/back-in-stock/back-in-stock.service.ts';
import { createCartService } from './features/cart/cart.service.ts';
import { createCatalogService } from './features/catalog/catalog.service.ts';
import type { CatalogueWatch } from './features/catalog/catalogue-watch.ts';
import { createCheckoutService } from './features/checkout/checkout.service.ts';
import { createContactService } from './features/contact/contact.service.ts';
import { createDiscountAdmin } from './features/discounts/discount-admin.ts';
import type { Mailer } from './features/mail/mailer.ts';
import { createShopNotifications } from './features/mail/shop-notifications.ts';
import { createOrdersService } from './features/orders/orders.service.ts';
import { createPreorderCancel } from './features/orders/preorder-cancel.ts';
import { createPreorderNotices } from './features/orders/preorder-notices.ts';
import { createPrivacy } from './features/privacy/privacy.service.ts';
import type { PaymentProvider } from './features/payments/provider.ts';

export interface ServiceDeps {
  config: Config;
  db: Db;
  log: Logger;
  mailer: Mailer;
  payments: PaymentProvider;
  /** Already listening: whoever connects starts it (serve.ts, the test shop), so building stays free of I/O. */
  catalogue: CatalogueWatch;
  /** Shared rate limits live here when Redis is configured, otherwise in the database. */
  redis?: RedisClient | undefined;
  throttles?: Omit<LimitsOptions, 'db' | 'redis'>;
  /** Work done after answering (reset links); tests wait for it. */
  later: Deferred;
  /** The shop's calendar day, "2026-11-28"; unset: today in SHOP_TIME_ZONE. Tests move it to a publication day. */
  today?: () => string;
}

/**
 * Every service of the shop, each built once. The routes (app.ts) and the background sweep
 * (serve.ts) are handed the same objects, so a refund the sweep resumes and one an operator
 * starts go through one OrderRefunds.
 */
export function createServices({ config, db, log, mailer, payments, catalogue, redis, throttles, later, today }: ServiceDeps) {
  usePasswordCost(config.PASSWORD_HASH_COST);
  const shopDay = today ?? (() => dayIn(config.SHOP_TIME_ZONE));
  // Covers on this server's disk, or in the bucket every server shares; linked at S3_PUBLIC_URL when set.
  const coverStore = coverStoreFor(config);
  linkCoversAt(config.S3_PUBLIC_URL);
  const limits = createLimits({ ...throttles, db, redis });
  const carts = createCartService(db, shopDay);
  const backInStock = createBackInStock({ db, mailer, limits, secret: config.SESSION_SECRET, publicUrl: config.publicUrl });
  // Signing in and changing a password check the second factor an operator sets up under /admin.
  const twoFactor = createTwoFactor({ db, limits });
  // Publication day: the sweep and every stock entry move the pre-orders that can ship to To pack.
  const preorderRelease = createPreorderRelease({ db, shopDay });
  const refunds = createOrderRefunds({ db, payments, mailer, log });
  // A parent cancels a pre-order through the operator's own cancel-and-refund, as its actor.
  const preorderCancel = createPreorderCancel({
    db,
    cancelAndRefund: (...args) => refunds.cancel(...args),
    secret: config.SESSION_SECRET,
    publicUrl: config.publicUrl,
  });
  const preorderNotices = createPreorderNotices({
    mailer,
    cancelLink: (link) => preorderCancel.linkFor(link),
    publicUrl: config.publicUrl,
  });
  return {
    /** The shared limits, for the plumbing app.ts wires (new sessions per client address). */
    limits,
    /** The shop's calendar day: pre-orders are taken before a title's publication date and packed from it. */
    shopDay,
    payments,
    catalogue,
    catalog: createCatalogService(db, catalogue, { shopDay }),
    carts,
    accounts: createAccountsService({ db, mailer, limits, later, publicUrl: config.publicUrl, secondFactor: twoFactor }),
    orders: createOrdersService(db),
    privacy: createPrivacy({ db, mailer, payments, limits, log, sessionDays: config.SESSION_MAX_AGE_DAYS }),
    checkout: createCheckoutService({
      db,
      carts,
      payments,
      mailer,
      log,
      publicUrl: config.publicUrl,
      notifyEmail: config.SHOP_NOTIFY_EMAIL,
      shopDay,
    }),
    contact: createContactService({
      db,
      mailer,
      limits,
      notify: createShopNotifications({ mailer, notifyEmail: config.SHOP_NOTIFY_EMAIL, publicUrl: config.publicUrl }),
    }),
    backInStock,
    twoFactor,
    systemStatus: createSystemStatus({ db, payments, mailer, config, log, coverStore }),
    inbox: createInbox(db),
    ordersList: createOrdersList(db),
    packing: createPacking(db),
    preorderRelease,
    preorderTitles: createPreorderTitles(db),
    orderDetails: createOrderDetails({ db, payments, log }),
    fulfilment: createFulfilment({ db, mailer, publicUrl: config.publicUrl }),
    refunds,
    preorderCancel,
    numbers: createNumbers(db),
    exports: createExports(db),
    bookAdmin: servePreordersAfterStock(createBookAdmin(db, backInStock, shopDay, preorderNotices), { release: preorderRelease, log }),
    coverStore,
    covers: createCovers({ db, store: coverStore, log }),
    discountAdmin: createDiscountAdmin(db),
  };
}

export type Services = ReturnType<typeof createServices>;
