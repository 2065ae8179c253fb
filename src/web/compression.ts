import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  gzip,
  gzipSync,
  type BrotliOptions,
  type InputType,
  type ZlibOptions,
} from 'node:zlib';
import type { IncomingMessage } from 'node:http';
import compression from 'compression';
import type { RequestHandler } from 'express';

// The one place that decides how the shop compresses. Bodies built once (cached pages) get
// a slower, smaller encoding; bodies built per request get the cheapest that still pays off.

export type Encoding = 'br' | 'gzip';

export const ENCODING_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** Where the build keeps the compressed copies of public/'s files, inside dist/. */
export const PUBLIC_COPIES_DIR = 'public';

/**
 * The encoding to send among those on offer; undefined for identity. The client's weights
 * decide; on a tie the first offered wins, so brotli beats gzip whatever order the browser
 * lists them in.
 */
export function chooseEncoding(req: Pick<IncomingMessage, 'headers'>, offered: readonly Encoding[] = ['br', 'gzip']): Encoding | undefined {
  const header = req.headers['accept-encoding'];
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  let best: Encoding | undefined;
  let bestWeight = 0;
  for (const encoding of offered) {
    const weight = weights.get(encoding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [encoding, weight];
  }
  return best;
}

/**
 * How hard to try: `build` for assets compressed once per release; `page` for cached pages,
 * compressed again only when what they show changes; `response` for a body made for one request only, where a
 * low brotli quality saves nearly as many bytes as a higher one for a fraction of the CPU.
 */
const EFFORT = {
  build: { brotli: 11, gzip: 9 },
  page: { brotli: 5, gzip: 9 },
  response: { brotli: 2, gzip: 6 },
} as const;

// A streaming brotli encoder sets up its window for every response: brotli's default of 4 MB
// costs more than compressing a page; 256 KB holds any page the shop sends.
const RESPONSE_BROTLI_WINDOW_BITS = 18;

/** The `compression` middleware, for whatever a route sends: brotli or gzip over 1 KB, at `response` effort. */
export function compressResponses(): RequestHandler {
  return compression({
    threshold: 1024,
    level: EFFORT.response.gzip,
    brotli: {
      params: { [constants.BROTLI_PARAM_QUALITY]: EFFORT.response.brotli, [constants.BROTLI_PARAM_LGWIN]: RESPONSE_BROTLI_WINDOW_BITS },
    },
  });
}

export function compress(body: Buffer, encoding: Encoding, effort: keyof typeof EFFORT): Buffer {
  if (encoding === 'gzip') return gzipSync(body, gzipOptions(effort));
  return brotliCompressSync(body, brotliOptions(body, effort));
}

/** As `compress`, on libuv's thread pool: for a body made while requests wait on the event loop. */
export function compressAsync(body: Buffer, encoding: Encoding, effort: keyof typeof EFFORT): Promise<Buffer> {
  return encoding === 'gzip' ? gzipAsync(body, gzipOptions(effort)) : brotliAsync(body, brotliOptions(body, effort));
}

const gzipAsync = promisify<InputType, ZlibOptions, Buffer>(gzip);
const brotliAsync = promisify<InputType, BrotliOptions, Buffer>(brotliCompress);

const gzipOptions = (effort: keyof typeof EFFORT): ZlibOptions => ({ level: EFFORT[effort].gzip });
const brotliOptions = (body: Buffer, effort: keyof typeof EFFORT): BrotliOptions => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: EFFORT[effort].brotli, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
});

/** Text types worth compressing; images other than SVG and fonts already are. */
export function isCompressible(contentType: string | undefined): boolean {
  return !!contentType && /^(text\/|application\/(json|javascript|xml|ld\+json|manifest\+json)|image\/svg\+xml)/.test(contentType);
}
