import { csrfSync } from 'csrf-sync';
import type { Request, RequestHandler } from 'express';
import { Forbidden } from './errors.ts';
import { hasSession } from './session-presence.ts';

export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const CSRF_MESSAGE = 'Your session has expired or this form is out of date. Please reload the page and try again.';

const { csrfSynchronisedProtection, generateToken, isRequestValid } = csrfSync({
  // HTML forms send the token as a hidden field, the islands as a header.
  getTokenFromRequest: (req) =>
    ((req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] as string | undefined) ??
    (req.headers[CSRF_HEADER] as string | undefined),
  errorConfig: { statusCode: 403, message: CSRF_MESSAGE },
});

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses unsafe requests that a browser says came from another site, before any token check.
 * Sec-Fetch-Site is authoritative where the browser sends it; otherwise the Origin header
 * (an opaque "null" origin carries no host to compare, so the token decides).
 */
export const rejectCrossSite: RequestHandler = (req, _res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const site = req.get('sec-fetch-site');
  if (site) return next(site === 'same-origin' || site === 'none' ? undefined : new Forbidden(CSRF_MESSAGE));
  const origin = req.get('origin');
  if (origin && origin !== 'null' && hostOf(origin) !== req.get('host')) return next(new Forbidden(CSRF_MESSAGE));
  next();
};

/** The token check on every request (see checkToken), with the multipart forms named. */
export function csrfProtection({ multipartForms = [] }: { multipartForms?: RegExp[] } = {}): RequestHandler {
  return (req, res, next) => {
    // A file upload's token is inside its multipart body, which only its own route reads, after
    // checking who is asking: on the paths named here that route checks it (assertCsrfToken)
    // before anything is kept. Anywhere else a multipart body hides no token and is refused.
    if (req.is('multipart/form-data') && multipartForms.some((path) => path.test(req.path))) return next();
    checkToken(req, res, next);
  };
}

/** For a route that parsed its own body (a multipart form): refuses it unless it carries the session's token. */
export function assertCsrfToken(req: Request): void {
  if (!hasSession(req) || !isRequestValid(req)) throw new Forbidden(CSRF_MESSAGE);
}

/**
 * A visitor with a session proves each change with its token. A visitor without one has no
 * token to send (book pages make no session), and nothing of theirs a forged request could
 * act on: their first change is accepted when the browser says it came from the shop's own
 * pages, and the session it creates gets its token.
 */
const checkToken: RequestHandler = (req, res, next) => {
  if (hasSession(req)) {
    csrfSynchronisedProtection(req, res, (err?: unknown) => next(err ? new Forbidden(CSRF_MESSAGE) : undefined));
    return;
  }
  if (SAFE_METHODS.has(req.method)) return next();
  if (!cameFromTheShop(req)) return next(new Forbidden(CSRF_MESSAGE));
  csrfToken(req);
  next();
};

// Positive proof only: a request that says nothing about where it came from is refused.
function cameFromTheShop(req: Request): boolean {
  if (req.get('sec-fetch-site') === 'same-origin') return true;
  const host = req.get('host');
  return [req.get('origin'), req.get('referer')].some((url) => url !== undefined && hostOf(url) === host);
}

/**
 * The session's token, made on first use. A read by a visitor without a session gets none
 * (an empty string): minting one would store a session for a visitor who has only looked,
 * and their first change needs no token (see checkToken).
 */
export function csrfToken(req: Request): string {
  if (SAFE_METHODS.has(req.method) && !hasSession(req)) return '';
  return generateToken(req);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    // An Origin or Referer that is not a URL names no host, so never the shop's.
    return undefined;
  }
}
