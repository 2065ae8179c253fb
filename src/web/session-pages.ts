import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import fresh from 'fresh';
import { Lru } from '../lib/lru.ts';
import { chooseEncoding, compress } from './compression.ts';
import { MIN_COMPRESS_BYTES } from './compress-responses.ts';
import { pathOf, setAll, type Answerer } from './front-door.ts';
import type { HeaderRenderer, PageAroundHeader, PageCache } from './page-cache.ts';
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
    const token = around.afterParts.length > 1 ? session.csrfToken || undefined : '';
    if (token === undefined) return false; // The page has forms and the session no token yet.
    const visitor = await visitorOf(session).catch(() => undefined);
    if (!visitor) return false;
    const ownHeader = header({ ...visitor.header, currentPath: pathOf(req.url) });
    setAll(res, headers);
    sendPersonalPage(req, res, around, ownHeader, token);
    return true;
  };
}

/** A header rendered once, as the bytes sent and a short hash that names them in ETags. */
interface RenderedHeader {
  body: Buffer;
  hash: string;
}

/** Headers kept by their locals: most visitors share a few badges and names. */
const HEADER_MEMO = { entries: 2000, bytes: 8 * 1024 * 1024 };

/**
 * The header is a function of its locals alone (the page, the greeting's name, the badge), so
 * one rendered for the same locals is the same text: kept by them, in memory, it is never
 * stale, whichever process changed the cart or the name.
 */
function memoHeader(render: HeaderRenderer): (locals: Record<string, unknown>) => RenderedHeader {
  const kept = new Lru<RenderedHeader>(HEADER_MEMO.entries, HEADER_MEMO.bytes);
  return (locals) => {
    const key = JSON.stringify(locals);
    let rendered = kept.get(key);
    if (rendered === undefined) {
      const body = Buffer.from(render(locals), 'utf8');
      rendered = { body, hash: shortHash(body) };
      kept.set(key, rendered, body.length + key.length * 2);
    }
    return rendered;
  };
}

const shortHash = (data: Buffer | string) => createHash('sha1').update(data).digest('base64url').slice(0, 16);

function wellWithinLife(session: StoredSession, maxAgeMs: number): boolean {
  const expires = session.cookie?.expires;
  if (!expires) return false;
  return new Date(expires).getTime() - Date.now() >= maxAgeMs / 2;
}

/** The kept page with this visitor's header, and their token in each of its forms. */
function personalBody(around: PageAroundHeader, header: RenderedHeader, token: string): Buffer {
  const parts = [around.before, header.body, around.afterParts[0]!];
  const field = Buffer.from(`name="_csrf" value="${token}"`, 'utf8');
  for (const part of around.afterParts.slice(1)) parts.push(field, part);
  return Buffer.concat(parts);
}

/**
 * As the app sends a page it rendered: compressed when the browser takes it, with a weak ETag.
 * The tag is made of what the page is made of (the kept page's hash, the header's, the token's
 * and the encoding), which names the same bytes as hashing them all would, at a fraction of
 * the cost, and lets a 304 skip building the page at all.
 */
function sendPersonalPage(
  req: IncomingMessage,
  res: ServerResponse,
  around: PageAroundHeader,
  header: RenderedHeader,
  token: string,
): void {
  const tokenHash = token ? `.${shortHash(token)}` : '';
  const size = around.before.length + header.body.length + around.afterParts.reduce((sum, part) => sum + part.length, 0);
  const encoding = size >= MIN_COMPRESS_BYTES ? chooseEncoding(req) : undefined;
  const tag = `W/"${around.hash}.${header.hash}${tokenHash}${encoding ? `-${encoding}` : ''}"`;
  res.statusCode = 200;
  res.setHeader('Content-Type', around.type);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', PERSONAL_PAGE_CACHING);
  res.setHeader('ETag', tag);
  if (fresh(req.headers, { etag: tag })) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const body = personalBody(around, header, token);
  const sent = encoding ? compress(body, encoding, 'response') : body;
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', sent.length);
  res.end(req.method === 'HEAD' ? undefined : sent);
}
