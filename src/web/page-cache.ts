import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { compress, chooseEncoding, type Encoding } from './compression.ts';

// Catalogue pages for visitors without a session are the same for everyone (no cart, no
// flash, no form token), so each is rendered once per catalogue version by its normal route
// and then answered from memory, compressed in advance, before the rest of the app runs.

/** GET /, /books and /books/:id, with any query. */
const CACHEABLE_PATH = /^\/(books(\/[^/]+)?\/?)?$/;
/** The catalogue as JSON; only without a query, since one with a query picks books at random. */
const CACHEABLE_URLS = new Set(['/api/books']);
// A page that carries a form token belongs to one session and is never shared.
const FORM_TOKEN = /name="_csrf" value="[^"]/;

export const PAGE_CACHE_LIMITS = { entries: 500, bytes: 32 * 1024 * 1024 };

/** One encoding of a kept page, named by its strong ETag. */
interface Variant {
  body: Buffer;
  etag: string;
}

interface KeptPage {
  type: string;
  identity: Variant;
  br: Variant;
  gzip: Variant;
}

/** The catalogue's version and its changes (catalog's CatalogueWatch, passed in by app.ts). */
export interface VersionWatch {
  current(): Promise<number>;
  onChange(listener: () => void): void;
}

export interface PageCacheOptions {
  watch: VersionWatch;
  /** The session cookie's name: a visitor who sends it gets a page of their own. */
  sessionCookie: string;
  limits?: { entries: number; bytes: number };
}

type Keeper = (body: string, type: string) => void;

// The responses whose page the cache asked for, with how to keep it (set by the middleware,
// used by sendPage).
const keepers = new WeakMap<Response, Keeper>();

/**
 * Answers a cacheable GET from a visitor without a session from memory when this catalogue
 * version's page is kept; otherwise lets the route render it and keeps what sendPage sends.
 */
export function pageCache({ watch, sessionCookie, limits = PAGE_CACHE_LIMITS }: PageCacheOptions): RequestHandler {
  const pages = new LRUCache<string, KeptPage>({
    max: limits.entries,
    maxSize: limits.bytes,
    sizeCalculation: (page) => page.identity.body.length + page.br.body.length + page.gzip.body.length,
  });
  watch.onChange(() => pages.clear());
  const cacheable = (req: Request) =>
    (req.method === 'GET' || req.method === 'HEAD') &&
    !req.headers.cookie?.includes(`${sessionCookie}=`) &&
    (CACHEABLE_PATH.test(req.path) || CACHEABLE_URLS.has(req.url));

  return async (req, res, next) => {
    if (!cacheable(req)) return next();
    let version: number;
    try {
      version = await watch.current();
    } catch {
      return next(); // The database is away: the route answers as it would without the cache.
    }
    const key = `${version} ${req.url}`;
    const kept = pages.get(key);
    if (kept) return sendKept(req, res, kept);
    keepers.set(res, (body, type) => {
      const page = buildPage(body, type);
      sendKept(req, res, page);
      // The session middleware adds its cookie as the headers go out: only a page sent
      // without one is kept.
      if (!res.getHeader('Set-Cookie')) pages.set(key, page);
    });
    next();
  };
}

/**
 * Sends a page a cacheable route rendered. When the page cache is waiting for it (a visitor
 * without a session, a plain 200 with no form token in it), it is also kept for the next one.
 */
export function sendPage(res: Response, body: string, type = 'text/html; charset=utf-8'): void {
  const keep = keepers.get(res);
  keepers.delete(res);
  if (keep && res.statusCode === 200 && !FORM_TOKEN.test(body)) return keep(body, type);
  res.type(type).send(body);
}

/** Renders a view and sends it with sendPage. */
export async function renderPage(res: Response, view: string, locals: object): Promise<void> {
  const html = await new Promise<string>((resolve, reject) =>
    res.render(view, locals, (err: Error | null, rendered: string) => (err ? reject(err) : resolve(rendered))),
  );
  sendPage(res, html);
}

function buildPage(text: string, type: string): KeptPage {
  const identity = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  // A strong ETag names one representation, so each encoding has its own.
  const variant = (encoding: Encoding, tag: string): Variant => ({ body: compress(identity, encoding, 'page'), etag: `"${hash}-${tag}"` });
  return { type, identity: { body: identity, etag: `"${hash}"` }, br: variant('br', 'br'), gzip: variant('gzip', 'gz') };
}

function sendKept(req: Request, res: Response, page: KeptPage): void {
  const encoding = chooseEncoding(req);
  const variant = encoding ? page[encoding] : page.identity;
  res.status(200).set({
    'Content-Type': page.type,
    'Cache-Control': 'no-cache',
    Vary: 'Accept-Encoding, Cookie',
    ETag: variant.etag,
  });
  // res.send answers 304 itself when the browser already holds this ETag.
  if (encoding) res.set('Content-Encoding', encoding);
  res.send(variant.body);
}
