import type { RequestHandler } from 'express';
import { chooseEncoding, compress, isCompressible } from './compression.ts';

/** Below this a compressed body saves less than it costs. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * Compresses what a route sends with res.send/json/render, once, from the finished body:
 * no streaming zlib per response as the `compression` middleware does. Pages for visitors
 * without a session come compressed from the page cache instead; files, from the build.
 */
export const compressResponses: RequestHandler = (req, res, next) => {
  const send = res.send;
  res.send = function compressedSend(body?: unknown) {
    if ((typeof body !== 'string' && !Buffer.isBuffer(body)) || res.getHeader('Content-Encoding')) return send.call(res, body);
    if (typeof body === 'string') {
      // What res.send does for a string, which the compressed Buffer would not get.
      const type = res.get('Content-Type');
      if (!type) res.type('html');
      else if (!/;\s*charset=/i.test(type)) res.set('Content-Type', `${type}; charset=utf-8`);
    }
    if (!isCompressible(res.get('Content-Type'))) return send.call(res, body);
    res.vary('Accept-Encoding');
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const encoding = bytes.length >= MIN_COMPRESS_BYTES ? chooseEncoding(req) : undefined;
    if (!encoding) return send.call(res, body);
    res.setHeader('Content-Encoding', encoding);
    return send.call(res, compress(bytes, encoding, 'response'));
  };
  next();
};
