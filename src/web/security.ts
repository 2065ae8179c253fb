import helmet from 'helmet';
import type { RequestHandler } from 'express';

// Stripe.js's documented origins, added to the policy of the checkout pages only.
const STRIPE_ORIGINS = {
  script: 'https://js.stripe.com',
  frame: 'https://js.stripe.com https://hooks.stripe.com',
  connect: 'https://api.stripe.com',
};
export const STRIPE_PAGES = new Set(['/checkout', '/simple-checkout', '/authcheckout']);

export interface SecurityOptions {
  isProduction: boolean;
  /** True when real Stripe keys are configured. */
  stripeEnabled: boolean;
  /** Where browsers fetch covers from when it is not the shop (S3_PUBLIC_URL's origin). */
  coverOrigin?: string | undefined;
}

/**
 * Helmet's headers on every answer, with Stripe's origins on the checkout pages when Stripe is
 * on: two helmet middlewares, each with a fixed policy, rather than one working it out per request.
 */
export function securityHeaders(options: SecurityOptions): RequestHandler {
  const page = helmetFor(options, false);
  const stripePage = options.stripeEnabled ? helmetFor(options, true) : page;
  return (req, res, next) => (STRIPE_PAGES.has(req.path) ? stripePage : page)(req, res, next);
}

function helmetFor({ isProduction, coverOrigin }: SecurityOptions, onStripePage: boolean): RequestHandler {
  const selfAnd = (stripeOrigin: string) => (onStripePage ? ["'self'", stripeOrigin] : ["'self'"]);

  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: selfAnd(STRIPE_ORIGINS.script),
        frameSrc: selfAnd(STRIPE_ORIGINS.frame),
        connectSrc: selfAnd(STRIPE_ORIGINS.connect),
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', ...(coverOrigin ? [coverOrigin] : [])],
        fontSrc: ["'self'"],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        ...(isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Same-origin referrers keep form posts' Origin header meaningful; other sites see nothing.
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}
