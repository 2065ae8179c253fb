import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { contentType } from 'mime-types';
import { BUILD_DIR } from './assets.ts';
import { chooseEncoding, ENCODING_SUFFIX, type Encoding } from './compression.ts';
import { pathOf, sendVariant, setAll, type Answerer, type Variant } from './front-door.ts';

/** A built file's name: the build names each by its content, so it never changes. */
const ASSET_PATH = /^\/assets\/([\w.-]+)$/;
const YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';

interface Asset {
  type: string;
  identity: Variant;
  variants: Partial<Record<Encoding, Variant>>;
}

/**
 * The build's files (dist/assets) answered from memory with the .br and .gz copies written at
 * build: read once, on the first request or at start-up, then sent with a year's cache.
 * Anything else under /assets goes on to the app (a 404).
 */
export function immutableAssets(headers: ReadonlyArray<readonly [string, string]>, buildDir = BUILD_DIR): Answerer {
  const dir = path.join(buildDir, 'assets');
  const assets = new Map<string, Asset>();
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) if (!isCopy(name)) load(name);
  }

  function load(name: string): Asset | undefined {
    const file = path.join(dir, name);
    if (isCopy(name) || !existsSync(file)) return undefined;
    const body = readFileSync(file);
    const tag = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    const variants: Asset['variants'] = {};
    for (const encoding of Object.keys(ENCODING_SUFFIX) as Encoding[]) {
      const copy = file + ENCODING_SUFFIX[encoding];
      if (existsSync(copy)) variants[encoding] = { body: readFileSync(copy), etag: `"${tag}-${encoding}"` };
    }
    const asset = { type: contentType(path.extname(name)) || 'application/octet-stream', identity: { body, etag: `"${tag}"` }, variants };
    assets.set(name, asset);
    return asset;
  }

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const name = ASSET_PATH.exec(pathOf(req.url))?.[1];
    const asset = name === undefined ? undefined : (assets.get(name) ?? load(name));
    if (!asset) return false;
    send(req, res, asset, headers);
    return true;
  };
}

function isCopy(name: string): boolean {
  return Object.values(ENCODING_SUFFIX).some((suffix) => name.endsWith(suffix));
}

function send(req: IncomingMessage, res: ServerResponse, asset: Asset, headers: ReadonlyArray<readonly [string, string]>): void {
  const offered = Object.keys(asset.variants) as Encoding[];
  const encoding = offered.length ? chooseEncoding(req, offered) : undefined;
  const variant = encoding ? asset.variants[encoding]! : asset.identity;
  setAll(res, headers);
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Cache-Control', YEAR_IMMUTABLE);
  if (offered.length) res.setHeader('Vary', 'Accept-Encoding');
  sendVariant(req, res, variant, encoding);
}
