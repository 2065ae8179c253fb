import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../log.ts';
import { createLogger, redactUrl } from '../log.ts';

interface RequestLogging {
  log: Logger;
  bindings: { id: string; method: string; url: string };
  bound?: Logger;
}

const requests = new WeakMap<Request, RequestLogging>();

/**
 * One line per request with its id, once the answer is sent; cookies and bodies are never
 * logged. The line holds only the id, method, URL (its tokens redacted) and status, so it is
 * written by a logger without the secret-field redaction every other line goes through.
 */
export function requestLog(log: Logger): RequestHandler {
  const lines = log.isLevelEnabled('info') ? log.child({}, { redact: { paths: [], censor: '[Redacted]' } }) : undefined;
  return (req, res, next) => {
    const started = performance.now();
    const id = acceptedRequestId(req.headers['x-request-id']) ?? randomUUID();
    const bindings = { id, method: req.method, url: redactUrl(req.originalUrl) };
    requests.set(req, { log, bindings });
    if (lines && req.url !== '/healthz') {
      res.once('finish', () =>
        lines.info(
          { req: bindings, res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) },
          'request completed',
        ),
      );
    }
    next();
  };
}

/** A client's (or the proxy's) request id is kept only when short and plain; anything else gets a fresh one. */
const PLAIN_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function acceptedRequestId(given: string | string[] | undefined): string | undefined {
  return typeof given === 'string' && PLAIN_REQUEST_ID.test(given) ? given : undefined;
}

/**
 * The shop's logger bound to this request's id, method and URL, made the first time a route
 * logs something for the request (most never do). `fallback` serves a request requestLog never saw.
 */
export function requestLogger(req: Request, fallback: Logger = silent): Logger {
  const logging = requests.get(req);
  if (!logging) return fallback;
  return (logging.bound ??= logging.log.child({ req: logging.bindings }));
}

const silent = createLogger('silent');
