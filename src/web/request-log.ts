import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../log.ts';
import { redactUrl } from '../log.ts';

declare module 'node:http' {
  interface IncomingMessage {
    /** The shop's logger bound to this request's id, method and URL. */
    log: Logger;
  }
}

/**
 * One line per request with its id, once the answer is sent; cookies and bodies are never
 * logged. req.log carries the request's id into anything else a route logs.
 */
export function requestLog(log: Logger): RequestHandler {
  const logsEachRequest = log.isLevelEnabled('info');
  return (req, res, next) => {
    const started = performance.now();
    const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID();
    req.log = log.child({ req: { id, method: req.method, url: redactUrl(req.originalUrl) } });
    if (logsEachRequest && req.url !== '/healthz') {
      res.once('finish', () =>
        req.log.info({ res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) }, 'request completed'),
      );
    }
    next();
  };
}
