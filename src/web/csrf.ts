import { csrfSync } from 'csrf-sync';
import type { Request, RequestHandler } from 'express';
import { Forbidden } from './errors.ts';

export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const CSRF_MESSAGE = 'Your session has expired or this form is out of date. Please reload the page and try again.';

const { csrfSynchronisedProtection, generateToken } = csrfSync({
  // HTML forms send the token as a hidden field, the islands as a header.
  getTokenFromRequest: (req) =>
    (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] as string | undefined ??
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

export const csrfProtection: RequestHandler = (req, res, next) => {
  csrfSynchronisedProtection(req, res, (err?: unknown) => next(err ? new Forbidden(CSRF_MESSAGE) : undefined));
};

/** The token for this session, created (with the session) on first use. */
export function csrfToken(req: Request): string {
  return generateToken(req);
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
