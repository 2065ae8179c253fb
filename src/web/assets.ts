import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

export interface ManifestChunk {
  file: string;
  src?: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** Which stylesheets a page links: every page the shop's, the admin pages the admin's too. */
export type StyleSection = 'shop' | 'admin';

export interface Assets {
  /** <link> tags for the page's stylesheets. */
  styles(section?: StyleSection): string;
  /** The module script for the island loader and the small page helpers. */
  scripts(): string;
}

export const BUILD_DIR = path.resolve('dist');
/** The Vite entries of the stylesheets. */
export const STYLESHEETS = { shop: 'islands/styles.css', admin: 'islands/admin.css' } as const;
const SCRIPT_ENTRY = 'islands/main.ts';

/** Vite's manifest of the built assets: entry (source path) to hashed file. */
export function readManifest(buildDir = BUILD_DIR): Manifest {
  const manifestPath = path.join(buildDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`No built assets at ${manifestPath}: run \`npm run build\` first.`);
  }
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

/** Reads Vite's manifest once and turns its hashed file names into tags. */
export function loadAssets(buildDir = BUILD_DIR): Assets {
  const manifest = readManifest(buildDir);
  const entry = (name: string) => {
    const chunk = manifest[name];
    if (!chunk) throw new Error(`Vite manifest has no entry for ${name}`);
    return chunk;
  };
  const links = (files: string[]) => files.map((file) => `<link rel="stylesheet" href="/${file}">`).join('\n');
  const shopFiles = [entry(STYLESHEETS.shop).file, ...(entry(SCRIPT_ENTRY).css ?? [])];
  const styleTags: Record<StyleSection, string> = {
    shop: links(shopFiles),
    admin: links([...shopFiles, entry(STYLESHEETS.admin).file]),
  };
  const scriptTag = `<script type="module" src="/${entry(SCRIPT_ENTRY).file}"></script>`;
  return { styles: (section = 'shop') => styleTags[section], scripts: () => scriptTag };
}
