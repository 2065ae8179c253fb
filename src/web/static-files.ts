import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import type { ServeStaticOptions } from 'serve-static';
import { BUILD_DIR } from './assets.ts';
import { chooseEncoding, ENCODING_SUFFIX, PUBLIC_COPIES_DIR, type Encoding } from './compression.ts';

/**
 * The build's files (dist/assets, mounted at /assets), with the .br and .gz copies written
 * beside them at build. The build names each file by its content, so it never changes: a
 * year's immutable caching is safe.
 */
export function builtAssets(buildDir = BUILD_DIR): RequestHandler {
  const dir = path.join(buildDir, 'assets');
  return precompressedStatic(dir, dir, { immutable: true, maxAge: '1y', index: false, redirect: false });
}

/**
 * public/'s files, each sent as the .br or .gz copy written at build (scripts/precompress.ts)
 * when the browser takes it. They may change between releases, so they are cached for an hour.
 */
export function publicFiles(buildDir = BUILD_DIR, root = path.resolve('public')): RequestHandler {
  const serve = precompressedStatic(root, path.join(buildDir, PUBLIC_COPIES_DIR), { maxAge: '1h', index: false, redirect: false });
  // Listed once: a page's path is not looked for on disk with every request.
  const files = new Set(listFiles(root));
  return (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && files.has(decodedPath(req.path))) return serve(req, res, next);
    next();
  };
}

function decodedPath(urlPath: string): string {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    // A malformed escape (a lone '%'): no listed file has that name, so the path as sent is
    // looked up, finds nothing, and the request goes on to the next route (a 404).
    return urlPath;
  }
}

/** '/covers/a.svg', ... for every file under `dir`. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`);
}

/** express.static over `root`, sending a file's compressed copy from `variantsRoot` when the browser takes it. */
function precompressedStatic(root: string, variantsRoot: string, options: ServeStaticOptions): RequestHandler {
  const variants = listVariants(variantsRoot);
  const plain = express.static(root, options);
  const packed = express.static(variantsRoot, options);
  return (req, res, next) => {
    const offered = req.method === 'GET' || req.method === 'HEAD' ? variants.get(req.path) : undefined;
    if (!offered) {
      plain(req, res, next);
      return;
    }
    res.vary('Accept-Encoding');
    const encoding = chooseEncoding(req, offered);
    if (!encoding) {
      plain(req, res, next);
      return;
    }
    const url = req.url;
    res.setHeader('Content-Encoding', encoding);
    // The original's type: serve-static would name the .br file's.
    res.type(path.extname(req.path));
    req.url = req.path + ENCODING_SUFFIX[encoding];
    packed(req, res, (err?: unknown) => {
      // The copy went missing since start-up: send the original instead.
      req.url = url;
      res.removeHeader('Content-Encoding');
      res.removeHeader('Content-Type');
      if (err) return next(err);
      plain(req, res, next);
    });
  };
}

/** '/covers/a.svg' -> ['br', 'gzip'], read once at start-up rather than per request. */
function listVariants(dir: string): Map<string, Encoding[]> {
  const variants = new Map<string, Encoding[]>();
  for (const file of listFiles(dir)) {
    const encoding = (Object.keys(ENCODING_SUFFIX) as Encoding[]).find((e) => file.endsWith(ENCODING_SUFFIX[e]));
    if (!encoding) continue;
    const key = file.slice(0, -ENCODING_SUFFIX[encoding].length);
    variants.set(
      key,
      [...(variants.get(key) ?? []), encoding].sort((a, b) => (a === 'br' ? -1 : b === 'br' ? 1 : 0)),
    );
  }
  return variants;
}
