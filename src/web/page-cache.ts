import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { CatalogueWatch } from '../features/catalog/catalogue-watch.ts';
import { Lru } from '../lib/lru.ts';
import { compress, chooseEncoding, type Encoding } from './compression.ts';

// Catalogue pages for visitors without a session are the same for everyone (no cart, no
// flash, no form token), so each is rendered once per catalogue version by its normal route
// and then answered from memory, compressed in advance, before sessions and routing.

/** GET /, /books and /books/:id. */
const CACHEABLE_PATH = /^\/(books(\/[^/]+)?\/?)?$/;
// A page that carries a form token belongs to one session and is never shared.
const FORM_TOKEN = /name="_csrf"/;

export const PAGE_CACHE_LIMITS = { entries: 500, bytes: 32 * 1024 * 1024 };

interface Variant {
  body: Buffer;
  etag: string;
}

interface CachedPage {
  type: string;
  identity: Variant;
  br: Variant;
  gzip: Variant;
}

export interface PageCacheOptions {
  watch: CatalogueWatch;
  /** The session cookie's name: a visitor who sends it gets their own page. */
  sessionCookie: string;
  limits?: { entries: number; bytes: number };
}

export function pageCache({ watch, sessionCookie, limits = PAGE_CACHE_LIMITS }: PageCacheOptions): RequestHandler {
  const pages = new Lru<CachedPage>(limits.entries, limits.bytes);
  watch.onChange(() => pages.clear());
  const hasSession = (req: Request) => req.headers.cookie?.includes(`${sessionCookie}=`) ?? false;

  return async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !CACHEABLE_PATH.test(req.path) || hasSession(req)) return next();
    let version: number;
    try {
      version = await watch.current();
    } catch {
      return next(); // The database is away: the route answers as it would without the cache.
    }
    const key = `${version} ${req.originalUrl}`;
    const cached = pages.get(key);
    if (cached) return sendPage(req, res, cached);

    const send = res.send;
    res.send = function sendAndKeep(body?: unknown) {
      res.send = send;
      if (res.statusCode !== 200 || typeof body !== 'string' || FORM_TOKEN.test(body)) return send.call(res, body);
      const page = buildPage(body, String(res.get('Content-Type') ?? 'text/html; charset=utf-8'));
      sendPage(req, res, page);
      // The session middleware adds its cookie as the headers go out: only a page sent
      // without one is kept.
      if (!res.getHeader('Set-Cookie')) pages.set(key, page, page.identity.body.length + page.br.body.length + page.gzip.body.length);
      return res;
    };
    next();
  };
}

function buildPage(html: string, type: string): CachedPage {
  const identity = Buffer.from(html, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const variant = (encoding: Encoding, tag: string): Variant => ({ body: compress(identity, encoding, 'page'), etag: `"${hash}-${tag}"` });
  // A strong ETag names one representation, so each encoding has its own.
  return { type, identity: { body: identity, etag: `"${hash}"` }, br: variant('br', 'br'), gzip: variant('gzip', 'gz') };
}

function sendPage(req: Request, res: Response, page: CachedPage): void {
  const encoding = chooseEncoding(req);
  const variant = encoding ? page[encoding] : page.identity;
  res.status(200);
  res.setHeader('Content-Type', page.type);
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Accept-Encoding, Cookie');
  res.setHeader('ETag', variant.etag);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', variant.body.length);
  res.end(req.method === 'HEAD' ? undefined : variant.body);
}
