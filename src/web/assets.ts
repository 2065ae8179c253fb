import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

interface ManifestChunk {
  file: string;
  css?: string[];
}

export interface Assets {
  /** <link> tags for the shop's stylesheet. */
  styles(): string;
  /** The module script for the island loader and the small page helpers. */
  scripts(): string;
}

export const BUILD_DIR = path.resolve('dist');
const STYLE_ENTRY = 'islands/styles.css';
const SCRIPT_ENTRY = 'islands/main.ts';

/** Reads Vite's manifest once and turns its hashed file names into tags. */
export function loadAssets(buildDir = BUILD_DIR): Assets {
  const manifestPath = path.join(buildDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`No built assets at ${manifestPath}: run \`npm run build\` first.`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const entry = (name: string) => {
    const chunk = manifest[name];
    if (!chunk) throw new Error(`Vite manifest has no entry for ${name}`);
    return chunk;
  };
  const styleTags = [entry(STYLE_ENTRY).file, ...(entry(SCRIPT_ENTRY).css ?? [])]
    .map((file) => `<link rel="stylesheet" href="/${file}">`)
    .join('\n');
  const scriptTag = `<script type="module" src="/${entry(SCRIPT_ENTRY).file}"></script>`;
  return { styles: () => styleTags, scripts: () => scriptTag };
}
