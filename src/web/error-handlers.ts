import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../log.ts';
import { HttpError, Unavailable } from './errors.ts';
import { requestLogger } from './request-log.ts';
import { isServiceUnavailable, RETRY_AFTER_SECONDS } from './unavailable.ts';

const GENERIC = 'Something went wrong. Please try again.';
const UNAVAILABLE = 'The shop is briefly unavailable. Please try again in a few seconds.';

/** Every path no router claimed: 'Page Not Found' with a 404. */
export const notFound: RequestHandler = (_req, res) => {
  res.status(404).render('errors/not-found', { title: 'Page Not Found' });
};

/**
 * The one place errors become answers: JSON {message} under /api, a page elsewhere.
 * Client errors (body parser, CSRF, zod, typed errors) keep their status and message;
 * a database or Redis outage is a 503 with Retry-After (the same request will work shortly);
 * anything else is logged and answered with a generic 500 without details.
 */
export function handleErrors(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const { status, message, details } = describe(err);
    if (status === 503) requestLogger(req, log).warn({ err }, 'service unavailable');
    else if (status >= 500) requestLogger(req, log).error({ err }, 'request failed');
    if (res.headersSent) return;
    if (status === 503) res.set('Retry-After', String(err instanceof Unavailable ? err.retryAfterSeconds : RETRY_AFTER_SECONDS));
    if (req.originalUrl.startsWith('/api/') || req.originalUrl === '/api') {
      res.status(status).json({ message, ...details });
      return;
    }
    const view = status === 404 ? 'errors/not-found' : 'errors/error';
    res.status(status).render(view, { title: status === 404 ? 'Page Not Found' : 'Something went wrong', message, status });
  };
}

function describe(err: unknown): { status: number; message: string; details: Record<string, unknown> } {
  if (err instanceof HttpError) return { status: err.status, message: err.message, details: err.details };
  if (isServiceUnavailable(err)) return { status: 503, message: UNAVAILABLE, details: {} };
  const e = err as { status?: number; statusCode?: number; expose?: boolean; type?: string; message?: string };
  const status = e.status ?? e.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, message: clientMessage(e), details: {} };
  return { status: 500, message: GENERIC, details: {} };
}

// Messages for the errors Express's own body parsers raise.
function clientMessage(e: { type?: string; message?: string; status?: number; expose?: boolean }): string {
  switch (e.type) {
    case 'entity.too.large':
      return 'The request is too large.';
    case 'entity.parse.failed':
      return 'The request body is not valid JSON.';
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return 'The request uses an unsupported encoding.';
    default:
      return e.status === 404 ? 'Not found' : e.expose && e.message ? e.message : 'The request could not be understood.';
  }
}
