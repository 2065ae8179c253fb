import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type { Logger } from '../log.ts';
import { redactUrl } from '../log.ts';
import type { Encoding } from './compression.ts';

/** Answers a request from memory and says true, or says false and leaves it to the app. */
export type Answerer = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** What `createApp` returns: a request listener for node:http (and supertest). */
export type ShopHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts `answerers` in front of the app. What one of them answers (the build's files, pages
 * for visitors without a session) never enters Express: its routing, parsers, sessions and
 * logger cost ten times the answer itself. They are asked in order; the app gets the rest.
 */
export function frontDoor(app: ShopHandler, answerers: Answerer[], log: Logger): ShopHandler {
  const logged = logAnswers(log);
  const ask = (req: IncomingMessage, res: ServerResponse, from: number): void => {
    for (let i = from; i < answerers.length; i++) {
      const answered = answerers[i]!(req, res);
      if (answered === true) return logged(req, res);
      if (answered === false) continue;
      answered.then(
        (yes) => (yes ? logged(req, res) : ask(req, res, i + 1)),
        () => ask(req, res, i + 1),
      );
      return;
    }
    app(req, res);
  };
  return (req, res) => ask(req, res, 0);
}

/** The line the app's request logger writes, for answers made without it (sent from memory at once). */
function logAnswers(log: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  if (!log.isLevelEnabled('info')) return () => {};
  return (req, res) => {
    const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID();
    log.info(
      { req: { id, method: req.method, url: redactUrl(req.url ?? '/') }, res: { statusCode: res.statusCode }, responseTime: 0 },
      'request completed',
    );
  };
}

/** Sets `headers` on `res`: the security headers every answer carries. */
export function setAll(res: ServerResponse, headers: ReadonlyArray<readonly [string, string]>): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

/** A body held in memory, as one encoding, named by its strong ETag. */
export interface Variant {
  body: Buffer;
  etag: string;
}

/** Ends `res` (its other headers set) with `variant`, or with 304 when the browser already holds it. */
export function sendVariant(req: IncomingMessage, res: ServerResponse, variant: Variant, encoding: Encoding | undefined): void {
  res.setHeader('ETag', variant.etag);
  if (fresh(req.headers, { etag: variant.etag })) {
    res.statusCode = 304;
    res.end();
    return;
  }
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', variant.body.length);
  res.end(req.method === 'HEAD' ? undefined : variant.body);
}

/** The URL's path, without its query. */
export function pathOf(url = '/'): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
