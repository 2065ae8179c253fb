import helmet from 'helmet';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { setAll } from './front-door.ts';

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
}

/**
 * Helmet's headers, worked out once per kind of page (with Stripe's origins on the checkout
 * pages when Stripe is on) and then set as they are on every answer.
 */
export function securityHeaders(options: SecurityOptions): RequestHandler {
  const page = pageSecurityHeaders(options);
  const stripePage = options.stripeEnabled ? headersFor(options, '/checkout') : page;
  return (req, res, next) => {
    setAll(res, STRIPE_PAGES.has(req.path) ? stripePage : page);
    next();
  };
}

/** The headers of a page that is not a checkout page: answers sent in front of the app carry these. */
export function pageSecurityHeaders(options: SecurityOptions): Array<[string, string]> {
  return headersFor(options, '/');
}

function helmetFor({ isProduction, stripeEnabled }: SecurityOptions): RequestHandler {
  const onStripePage = (req: IncomingMessage) => stripeEnabled && STRIPE_PAGES.has(new URL(req.url ?? '/', 'http://x').pathname);
  const stripeOr = (origin: string) => (req: IncomingMessage) => (onStripePage(req) ? origin : "'self'");

  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", stripeOr(STRIPE_ORIGINS.script)],
        frameSrc: ["'self'", stripeOr(STRIPE_ORIGINS.frame)],
        connectSrc: ["'self'", stripeOr(STRIPE_ORIGINS.connect)],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
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

/** Runs helmet once for a page at `url` and keeps what it set. */
function headersFor(options: SecurityOptions, url: string): Array<[string, string]> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let done = false;
  helmetFor(options)({ method: 'GET', url, headers: {} } as Request, res as unknown as Response, () => {
    done = true;
  });
  if (!done) throw new Error('the security headers could not be worked out');
  return [...headers];
}
