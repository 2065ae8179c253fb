import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { Lru } from '../lib/lru.ts';
import { compress, chooseEncoding, type Encoding } from './compression.ts';
import { pathOf, sendVariant, setAll, type Answerer, type Variant } from './front-door.ts';

// Catalogue pages for visitors without a session are the same for everyone (no cart, no
// flash, no form token), so each is rendered once per catalogue version by its normal route
// and then answered from memory, compressed in advance, in front of the app (front-door.ts).

/** GET /, /books and /books/:id. */
const CACHEABLE_PATH = /^\/(books(\/[^/]+)?\/?)?$/;
/** The catalogue as JSON; only without a query, since one with a query picks books at random. */
const CACHEABLE_URLS = new Set(['/api/books']);
// A page that carries a form token belongs to one session and is never shared. Pages for
// visitors without a session leave the field empty, for a session's page to fill in.
const FORM_TOKEN = /name="_csrf" value="[^"]/;
export const EMPTY_FORM_TOKEN = 'name="_csrf" value=""';

export const PAGE_CACHE_LIMITS = { entries: 500, bytes: 32 * 1024 * 1024 };

interface CachedPage {
  type: string;
  identity: Variant;
  br: Variant;
  gzip: Variant;
  /** The page around its header, for a visitor with a session (session-pages.ts). */
  around?: PageAroundHeader;
}

/**
 * A page for visitors without a session, split where its site header goes, and what follows
 * the header split at each empty form token, ready to be joined around one visitor's header
 * and token without scanning the page again.
 */
export interface PageAroundHeader {
  type: string;
  /** Names this page: the hash its ETag is made of. */
  hash: string;
  before: Buffer;
  /** The rest of the page: more than one part when it has form tokens to fill in. */
  afterParts: Buffer[];
}

/** Renders the site header for a page's locals (views/partials/header.eta). */
export type HeaderRenderer = (locals: Record<string, unknown>) => string;

/** The catalogue's version and its changes (catalog's CatalogueWatch, passed in by app.ts). */
export interface VersionWatch {
  current(): Promise<number>;
  onChange(listener: () => void): void;
}

export interface PageCacheOptions {
  watch: VersionWatch;
  /** The session cookie's name: a visitor who sends it gets their own page. */
  sessionCookie: string;
  /** The security headers every answer carries (the app sets them on the pages it renders). */
  headers: ReadonlyArray<readonly [string, string]>;
  renderHeader: HeaderRenderer;
  limits?: { entries: number; bytes: number };
}

export interface PageCache {
  /** Answers a visitor without a session from memory, in front of the app. */
  answer: Answerer;
  /** In the app: keeps the page a route renders for a request `answer` had no copy for. */
  keep: RequestHandler;
  /** The kept page for this GET, split around its header; undefined when there is none yet. */
  aroundHeader(req: IncomingMessage): Promise<PageAroundHeader | undefined>;
}

export function pageCache({ watch, sessionCookie, headers, renderHeader, limits = PAGE_CACHE_LIMITS }: PageCacheOptions): PageCache {
  const pages = new Lru<CachedPage>(limits.entries, limits.bytes);
  watch.onChange(() => pages.clear());
  // The key a page is kept under, set by `answer` for the app's rendering to find.
  const missing = new WeakMap<IncomingMessage, string>();
  const hasSession = (req: IncomingMessage) => req.headers.cookie?.includes(`${sessionCookie}=`) ?? false;
  const cacheablePath = (req: IncomingMessage) =>
    (req.method === 'GET' || req.method === 'HEAD') && (CACHEABLE_PATH.test(pathOf(req.url)) || CACHEABLE_URLS.has(req.url ?? ''));
  const cacheable = (req: IncomingMessage) => cacheablePath(req) && !hasSession(req);

  async function lookUp(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    let version: number;
    try {
      version = await watch.current();
    } catch {
      return false; // The database is away: the route answers as it would without the cache.
    }
    const key = `${version} ${req.url}`;
    const cached = pages.get(key);
    if (!cached) {
      missing.set(req, key);
      return false;
    }
    setAll(res, headers);
    sendPage(req, res, cached);
    return true;
  }

  return {
    answer: (req, res) => cacheable(req) && lookUp(req, res),
    keep: (req, res, next) => {
      const key = missing.get(req);
      if (key === undefined) return next();
      const send = res.send;
      res.send = function sendAndKeep(body?: unknown) {
        res.send = send;
        if (res.statusCode !== 200 || typeof body !== 'string' || FORM_TOKEN.test(body)) return send.call(res, body);
        const type = String(res.get('Content-Type') ?? 'text/html; charset=utf-8');
        const page = buildPage(body, type, type.startsWith('text/html') ? renderHeader(res.locals) : undefined);
        sendPage(req, res, page);
        // The session middleware adds its cookie as the headers go out: only a page sent
        // without one is kept.
        if (!res.getHeader('Set-Cookie')) pages.set(key, page, page.identity.body.length * 3 + page.br.body.length + page.gzip.body.length);
        return res;
      };
      next();
    },
    aroundHeader: async (req) => {
      if (!cacheablePath(req)) return undefined;
      try {
        return pages.get(`${await watch.current()} ${req.url}`)?.around;
      } catch {
        return undefined;
      }
    },
  };
}

function buildPage(html: string, type: string, header: string | undefined): CachedPage {
  const identity = Buffer.from(html, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const variant = (encoding: Encoding, tag: string): Variant => ({ body: compress(identity, encoding, 'page'), etag: `"${hash}-${tag}"` });
  // A strong ETag names one representation, so each encoding has its own.
  const around = header === undefined ? undefined : splitAround(html, header, type, hash);
  return { type, identity: { body: identity, etag: `"${hash}"` }, br: variant('br', 'br'), gzip: variant('gzip', 'gz'), around };
}

function splitAround(html: string, header: string, type: string, hash: string): PageAroundHeader | undefined {
  const at = html.indexOf(header);
  if (at === -1) return undefined;
  const afterParts = html
    .slice(at + header.length)
    .split(EMPTY_FORM_TOKEN)
    .map((part) => Buffer.from(part, 'utf8'));
  return { type, hash, before: Buffer.from(html.slice(0, at), 'utf8'), afterParts };
}

function sendPage(req: IncomingMessage, res: ServerResponse, page: CachedPage): void {
  const encoding = chooseEncoding(req);
  const variant = encoding ? page[encoding] : page.identity;
  res.statusCode = 200;
  res.setHeader('Content-Type', page.type);
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Accept-Encoding, Cookie');
  sendVariant(req, res, variant, encoding);
}
