import helmet from 'helmet';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

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

export function securityHeaders({ isProduction, stripeEnabled }: SecurityOptions): RequestHandler {
  const onStripePage = (req: IncomingMessage) =>
    stripeEnabled && STRIPE_PAGES.has(new URL(req.url ?? '/', 'http://x').pathname);
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

/**
 * The headers securityHeaders sets on a page that is not a checkout page, read once by
 * running it: answers sent in front of the app (front-door.ts) carry exactly these.
 */
export function pageSecurityHeaders(options: SecurityOptions): Array<[string, string]> {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let done = false;
  securityHeaders(options)({ method: 'GET', url: '/', headers: {} } as Request, res as unknown as Response, () => {
    done = true;
  });
  if (!done) throw new Error('the security headers could not be read');
  return [...headers];
}
