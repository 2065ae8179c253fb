import type { IncomingMessage, ServerResponse } from 'node:http';
import etag from 'etag';
import fresh from 'fresh';
import { Lru } from '../lib/lru.ts';
import { chooseEncoding, compress } from './compression.ts';
import { MIN_COMPRESS_BYTES } from './compress-responses.ts';
import { pathOf, setAll, type Answerer } from './front-door.ts';
import { EMPTY_FORM_TOKEN, type HeaderRenderer, type PageCache } from './page-cache.ts';
import type { SessionReader, StoredSession } from './session-reader.ts';
import { PERSONAL_PAGE_CACHING } from './session-presence.ts';

/** What a session changes on a catalogue page: the header's greeting and cart badge, and the form token. */
export interface PageVisitor {
  /** The header's locals: user, cartCount, cartBadge. */
  header: Record<string, unknown>;
  csrfToken?: string;
}

/**
 * The visitor a stored session stands for, or undefined when only the app can answer: a
 * session that has ended, an account that must change its password first.
 */
export type VisitorOf = (session: StoredSession) => Promise<PageVisitor | undefined>;

export interface SessionPagesOptions {
  pages: PageCache;
  readSession: SessionReader;
  visitorOf: VisitorOf;
  renderHeader: HeaderRenderer;
  headers: ReadonlyArray<readonly [string, string]>;
  /** The session's whole life: one past its half is renewed by the app (session-renewal.ts). */
  maxAgeMs: number;
}

/**
 * Catalogue pages for a visitor with a session, answered in front of the app: the page kept
 * for visitors without one, with this visitor's header and form token put in. The app's
 * session middleware, parsers and template rendering cost several times that. Anything the
 * session would make the app do (a flash to show, a session to renew or end, a token to
 * create) sends the request on to the app.
 */
export function sessionPages({ pages, readSession, visitorOf, renderHeader, headers, maxAgeMs }: SessionPagesOptions): Answerer {
  const header = memoHeader(renderHeader);
  return async (req, res) => {
    if (req.url?.includes('loggedout=')) return false; // The signed-out toast comes from the app.
    const around = await pages.aroundHeader(req);
    if (!around) return false;
    const session = await readSession(req).catch(() => undefined);
    if (!session || session.flash || !wellWithinLife(session, maxAgeMs)) return false;
    const needsToken = around.after.includes(EMPTY_FORM_TOKEN);
    if (needsToken && !session.csrfToken) return false;
    const visitor = await visitorOf(session).catch(() => undefined);
    if (!visitor) return false;
    const after = needsToken ? around.after.replaceAll(EMPTY_FORM_TOKEN, `name="_csrf" value="${session.csrfToken}"`) : around.after;
    setAll(res, headers);
    sendPersonalPage(req, res, around.type, around.before + header({ ...visitor.header, currentPath: pathOf(req.url) }) + after);
    return true;
  };
}

/** Headers kept by their locals: most visitors share a few badges and names. */
const HEADER_MEMO = { entries: 2000, bytes: 8 * 1024 * 1024 };

/**
 * The header is a function of its locals alone (the page, the greeting's name, the badge), so
 * one rendered for the same locals is the same text: kept by them, in memory, it is never
 * stale, whichever process changed the cart or the name.
 */
function memoHeader(render: HeaderRenderer): HeaderRenderer {
  const kept = new Lru<string>(HEADER_MEMO.entries, HEADER_MEMO.bytes);
  return (locals) => {
    const key = JSON.stringify(locals);
    let html = kept.get(key);
    if (html === undefined) kept.set(key, (html = render(locals)), html.length * 2 + key.length * 2);
    return html;
  };
}

function wellWithinLife(session: StoredSession, maxAgeMs: number): boolean {
  const expires = session.cookie?.expires;
  if (!expires) return false;
  return new Date(expires).getTime() - Date.now() >= maxAgeMs / 2;
}

/** As the app sends a page it rendered: compressed when the browser takes it, with a weak ETag of what is sent. */
function sendPersonalPage(req: IncomingMessage, res: ServerResponse, type: string, html: string): void {
  const body = Buffer.from(html, 'utf8');
  const encoding = body.length >= MIN_COMPRESS_BYTES ? chooseEncoding(req) : undefined;
  const sent = encoding ? compress(body, encoding, 'response') : body;
  const tag = etag(sent, { weak: true });
  res.statusCode = 200;
  res.setHeader('Content-Type', type);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', PERSONAL_PAGE_CACHING);
  res.setHeader('ETag', tag);
  if (fresh(req.headers, { etag: tag })) {
    res.statusCode = 304;
    res.end();
    return;
  }
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', sent.length);
  res.end(req.method === 'HEAD' ? undefined : sent);
}
