import { readdirSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { compress, ENCODING_SUFFIX, PUBLIC_COPIES_DIR, type Encoding } from '../src/web/compression.ts';

// Text files are compressed once here, at build, so the server only picks a file:
// dist/assets/x.js gets x.js.br and x.js.gz beside it, and public/a.svg gets
// dist/public/a.svg.br and .gz (public/ itself stays as committed).

const TEXT = /\.(js|mjs|css|svg|html|txt|json|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

export function precompress({ publicDir = 'public' } = {}): Plugin {
  let outDir = 'dist';
  return {
    name: 'little-lantern-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of textFiles(path.join(outDir, 'assets'))) writeVariants(file, file);
      const from = path.resolve(publicDir);
      for (const file of textFiles(from)) writeVariants(file, path.join(outDir, PUBLIC_COPIES_DIR, path.relative(from, file)));
    },
  };
}

function textFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && TEXT.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function writeVariants(source: string, target: string): void {
  const body = readFileSync(source);
  if (body.length < MIN_BYTES) return;
  mkdirSync(path.dirname(target), { recursive: true });
  for (const encoding of Object.keys(ENCODING_SUFFIX) as Encoding[]) {
    const packed = compress(body, encoding, 'build');
    if (packed.length < body.length) writeFileSync(target + ENCODING_SUFFIX[encoding], packed);
  }
}
