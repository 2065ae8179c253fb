import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { chooseEncoding, compressAsync } from './compression.ts';

// Catalogue pages for visitors without a session are the same for everyone (no cart, no
// flash, no form token), so each is rendered by its normal route, kept in memory compressed,
// and answered from there before the rest of the app runs, until something it shows changes.

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
  /** What the page shows, as its route named it, and the fingerprint of that when it was made. */
  shows: readonly string[];
  fingerprint: string;
}

/**
 * What the kept pages show, now (catalog's fingerprints, passed in by app.ts). Equal
 * fingerprints mean a visitor would see the same page; a change nobody sees (a hold on a book
 * with plenty of copies) leaves them equal.
 */
export interface ShownState {
  fingerprint(shows: readonly string[]): string;
}

export interface PageCacheOptions {
  shown: () => Promise<ShownState>;
  /** The session cookie's name: a visitor who sends it gets a page of their own. */
  sessionCookie: string;
  limits?: { entries: number; bytes: number };
}

type Keeper = (body: string, type: string, shows: readonly string[]) => Promise<void>;

// The responses whose page the cache asked for, with how to keep it (set by the middleware,
// used by sendPage).
const keepers = new WeakMap<Response, Keeper>();

/**
 * Answers a cacheable GET from a visitor without a session from memory while what the kept
 * page shows is unchanged. When it has changed, one request renders the page anew through its
 * route (single flight) and the visitors arriving meanwhile get the page before (stale while
 * revalidating); with no page kept yet, they wait for that one rendering.
 */
export function pageCache({ shown, sessionCookie, limits = PAGE_CACHE_LIMITS }: PageCacheOptions): RequestHandler {
  const pages = new LRUCache<string, KeptPage>({
    max: limits.entries,
    maxSize: limits.bytes,
    sizeCalculation: (page) => page.identity.body.length + page.br.body.length + page.gzip.body.length,
  });
  // The renderings under way, by URL: what they kept, or undefined when the route kept nothing.
  const rendering = new Map<string, Promise<KeptPage | undefined>>();
  const cacheable = (req: Request) =>
    (req.method === 'GET' || req.method === 'HEAD') &&
    !req.headers.cookie?.includes(`${sessionCookie}=`) &&
    (CACHEABLE_PATH.test(req.path) || CACHEABLE_URLS.has(req.url));

  return async (req, res, next) => {
    if (!cacheable(req)) return next();
    const key = req.url;
    const kept = pages.get(key);
    let state: ShownState;
    try {
      state = await shown();
    } catch {
      // The catalogue cannot be read (the database is away): the page kept, else the route's answer.
      return kept ? sendKept(req, res, kept) : next();
    }
    if (kept && state.fingerprint(kept.shows) === kept.fingerprint) return sendKept(req, res, kept);
    const underWay = rendering.get(key);
    if (underWay) {
      if (kept) return sendKept(req, res, kept);
      const made = await underWay;
      return made ? sendKept(req, res, made) : next();
    }

    let finish!: (page: KeptPage | undefined) => void;
    const renderingNow = new Promise<KeptPage | undefined>((resolve) => {
      finish = (page) => {
        if (rendering.get(key) === renderingNow) rendering.delete(key);
        resolve(page);
      };
    });
    rendering.set(key, renderingNow);
    // A route that keeps nothing (an error, a page that starts a session) ends the rendering
    // too; a page that is gone (a book taken off sale) is forgotten with it.
    res.on('close', () => {
      if (res.statusCode === 404 && kept && pages.get(key) === kept) pages.delete(key);
      finish(undefined);
    });
    keepers.set(res, async (body, type, shows) => {
      const page = await buildPage(body, type, shows, state.fingerprint(shows), kept);
      sendKept(req, res, page);
      // The session middleware adds its cookie as the headers go out: only a page sent
      // without one is kept.
      if (res.getHeader('Set-Cookie')) return finish(undefined);
      pages.set(key, page);
      finish(page);
    });
    next();
  };
}

export interface PageOptions {
  type?: string;
  /** What the page shows (catalog's SHOWS): it is kept until one of these changes as a visitor sees it. */
  shows: readonly string[];
}

/**
 * Sends a page a cacheable route rendered. When the page cache is waiting for it (a visitor
 * without a session, a plain 200 with no form token in it), it is also kept for the next one.
 */
export async function sendPage(res: Response, body: string, { type = 'text/html; charset=utf-8', shows }: PageOptions): Promise<void> {
  const keep = keepers.get(res);
  keepers.delete(res);
  if (keep && res.statusCode === 200 && !FORM_TOKEN.test(body)) return keep(body, type, shows);
  res.type(type).send(body);
}

/** Renders a view and sends it with sendPage. */
export async function renderPage(res: Response, view: string, locals: object, shows: readonly string[]): Promise<void> {
  const html = await new Promise<string>((resolve, reject) =>
    res.render(view, locals, (err: Error | null, rendered: string) => (err ? reject(err) : resolve(rendered))),
  );
  await sendPage(res, html, { shows });
}

/**
 * A page ready to answer from memory, compressed off the event loop. The same text as the page
 * kept before (a change the page does not show after all) keeps its compressed copies.
 */
async function buildPage(text: string, type: string, shows: readonly string[], fingerprint: string, before?: KeptPage): Promise<KeptPage> {
  const identity = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  const etag = `"${hash}"`;
  if (before && before.identity.etag === etag && before.type === type) return { ...before, shows, fingerprint };
  const [br, gzip] = await Promise.all([compressAsync(identity, 'br', 'page'), compressAsync(identity, 'gzip', 'page')]);
  // A strong ETag names one representation, so each encoding has its own.
  return {
    type,
    identity: { body: identity, etag },
    br: { body: br, etag: `"${hash}-br"` },
    gzip: { body: gzip, etag: `"${hash}-gz"` },
    shows,
    fingerprint,
  };
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
