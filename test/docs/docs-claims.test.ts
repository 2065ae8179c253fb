// The claims in README.md and docs/ that drift when the code changes and nobody rereads the
// prose: the islands counted, the environment variables listed, the commands named, the links
// and paths followed, and the docs headings that code comments point to.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** README.md and every Markdown file under docs/, as paths from the repository's root. */
const DOC_FILES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const README_MAX_LINES = 160;

// --- Reading the code -------------------------------------------------------------------------

/** The islands islands/loader.ts registers: the keys of its `registry` object. */
function registeredIslands(): string[] {
  const source = read('islands/loader.ts');
  const block = /const registry\b.*?=\s*\{\n([\s\S]*?)\n\};/.exec(source)?.[1];
  if (!block) throw new Error('islands/loader.ts: no `const registry = { ... };` found');
  return [...block.matchAll(/['"]?([\w-]+)['"]?\s*:\s*\(\)\s*=>\s*import\(/g)].map((m) => m[1]!);
}

/**
 * Every environment variable src/config.ts reads: the names loadConfig looks up in the
 * environment it is given (watched through a Proxy), and any `env.NAME` / `process.env.NAME`
 * written in the file.
 */
function variablesConfigReads(): Set<string> {
  const names = new Set<string>();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'docs-claims-'));
  const given: Record<string, string> = { DATA_DIR: dataDir, SESSION_SECRET: 'docs-claims-'.padEnd(40, 'x') };
  const watched = new Proxy(given, {
    get(target, key, receiver) {
      if (typeof key === 'string') names.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key) {
      if (typeof key === 'string') names.add(key);
      return Reflect.has(target, key);
    },
  });
  try {
    loadConfig(watched);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const m of read('src/config.ts').matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) names.add((m[1] ?? m[2])!);
  return new Set([...names].filter((name) => /^[A-Z][A-Z0-9_]*$/.test(name)));
}

function packageScripts(): Set<string> {
  return new Set(Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts));
}

// --- Reading the docs -------------------------------------------------------------------------

/** The variables named in the first column of the table under README's "## Configuration". */
function readmeConfigurationTable(readme: string): Set<string> {
  const section = /^## Configuration\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Configuration" section followed by another section');
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) continue;
    const firstCell = line.split('|')[1] ?? '';
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

/** The variables .env.example shows, set or commented out (`NAME=...` or `# NAME=...`). */
function envExampleVariables(): Set<string> {
  return new Set([...read('.env.example').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** "four small React islands", "5 islands": every count of islands the text states. */
function islandCounts(text: string): Array<{ phrase: string; count: number }> {
  const number = `(${NUMBER_WORDS.join('|')}|\\d+)`;
  const pattern = new RegExp(`\\b${number}\\s+(?:small\\s+|little\\s+)?(?:React\\s+)?islands?\\b`, 'gi');
  return [...text.matchAll(pattern)].map((m) => {
    const word = m[1]!.toLowerCase();
    return { phrase: m[0], count: /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word) };
  });
}

/** The text inside code: fenced blocks and `inline spans`, where commands are written. */
function codeIn(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  const inline = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  return [...fenced, ...inline];
}

// npm's own commands, which are not package.json scripts.
const NPM_COMMANDS = new Set([
  'install',
  'i',
  'ci',
  'exec',
  'init',
  'ls',
  'audit',
  'outdated',
  'update',
  'view',
  'pack',
  'publish',
  'uninstall',
]);

/** Every package.json script a command in the text runs: `npm run X`, and `npm X` for X not one of npm's own. */
function scriptsNamed(markdown: string): string[] {
  const named: string[] = [];
  for (const code of codeIn(markdown)) {
    for (const m of code.matchAll(/\bnpm\s+run\s+([\w:.-]+)/g)) named.push(m[1]!);
    for (const m of code.matchAll(/\bnpm\s+(?!run\b)([a-z][\w:.-]*)/g)) if (!NPM_COMMANDS.has(m[1]!)) named.push(m[1]!);
  }
  return named;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function headings(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => m[1]!);
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of headings(markdown)) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

/** Relative links of a Markdown file: [text](target), outside code. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Where a link leads, or why it leads nowhere. */
function brokenLink(from: string, target: string): string | undefined {
  const [file = '', anchor] = target.split('#');
  const resolved = file ? path.join(path.dirname(from), file) : from;
  if (!existsSync(path.join(ROOT, resolved))) return `${from}: ${target} (no file ${resolved})`;
  if (anchor !== undefined && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor)) {
    return `${from}: ${target} (no heading with the anchor #${anchor} in ${resolved})`;
  }
  return undefined;
}

// A path in the repository written in `code` in the docs: src/..., test/..., and so on.
const REPO_PATH = /^(?:src|test|islands|views|scripts|migrations|seeds|bench|docs|\.ci)\/[\w./-]*$/;

const SOURCE_DIRS = ['src', 'islands', 'views', 'test', 'scripts', 'migrations', 'seeds'];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|eta|css|scss)$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

// --- The claims -------------------------------------------------------------------------------

describe('README.md and docs/', () => {
  it(`README.md has at most ${README_MAX_LINES} lines`, () => {
    const lines = read('README.md').replace(/\n$/, '').split('\n').length;
    expect(lines, `README.md has ${lines} lines; move detail into docs/`).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('counts as many React islands as islands/loader.ts registers, and names each one', () => {
    const registered = registeredIslands();
    expect(registered.length).toBeGreaterThan(0);
    const claims = DOC_FILES.flatMap((file) => islandCounts(read(file)).map((claim) => ({ file, ...claim })));
    expect(claims.length, 'no document states how many islands there are').toBeGreaterThan(0);
    for (const claim of claims) {
      expect(claim.count, `${claim.file} says "${claim.phrase}"; islands/loader.ts registers ${registered.join(', ')}`).toBe(
        registered.length,
      );
    }
    const architecture = read('docs/architecture.md');
    for (const island of registered)
      expect(architecture, `docs/architecture.md does not name the island ${island}`).toContain(`\`${island}\``);
  });

  it("lists in README's configuration table exactly the environment variables src/config.ts reads", () => {
    const read = [...variablesConfigReads()].sort();
    expect(read.length).toBeGreaterThan(10);
    const table = [...readmeConfigurationTable(readFileSync(path.join(ROOT, 'README.md'), 'utf8'))].sort();
    expect(table).toEqual(read);
  });

  it('shows in .env.example exactly the environment variables src/config.ts reads', () => {
    expect([...envExampleVariables()].sort()).toEqual([...variablesConfigReads()].sort());
  });

  it('names only npm scripts that package.json has', () => {
    const scripts = packageScripts();
    const missing = DOC_FILES.flatMap((file) =>
      scriptsNamed(read(file))
        .filter((name) => !scripts.has(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(missing, 'commands named in the docs with no script in package.json').toEqual([]);
    expect(DOC_FILES.flatMap((file) => scriptsNamed(read(file)))).toContain('test');
  });

  it('links only to files and headings that exist', () => {
    const broken = DOC_FILES.flatMap((file) => relativeLinks(read(file)).flatMap((target) => brokenLink(file, target) ?? []));
    expect(broken).toEqual([]);
  });

  it('names only repository paths that exist', () => {
    const missing = DOC_FILES.flatMap((file) =>
      codeIn(read(file))
        .map((code) => code.trim())
        .filter((code) => REPO_PATH.test(code) && !existsSync(path.join(ROOT, code)))
        .map((code) => `${file}: ${code}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('code comments that point into docs/', () => {
  const self = path.relative(ROOT, fileURLToPath(import.meta.url));
  const files = SOURCE_DIRS.flatMap(sourceFiles).filter((file) => file !== self);

  it('name a docs file and a heading that exist', () => {
    const pointers = files.flatMap((file) =>
      [...read(file).matchAll(/docs\/([\w-]+\.md),\s*"([^"\n]+)"/g)].map((m) => ({ file, doc: `docs/${m[1]!}`, heading: m[2]! })),
    );
    expect(pointers.length).toBeGreaterThan(0);
    const broken = pointers
      .filter(({ doc, heading }) => !existsSync(path.join(ROOT, doc)) || !headings(read(doc)).includes(heading))
      .map(({ file, doc, heading }) => `${file}: ${doc}, "${heading}"`);
    expect(broken).toEqual([]);
  });

  it('cite no document the repository does not hold (a spec section, DESIGN.md)', () => {
    const cited = files.flatMap((file) =>
      read(file)
        .split('\n')
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        .filter(({ line }) => /\bspec\b[^\n]{0,12}\bsections?\s+\d|\bDESIGN\.md\b/i.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(cited).toEqual([]);
  });
});
