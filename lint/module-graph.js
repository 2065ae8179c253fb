// @ts-check
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The shop's own modules and what each imports, read the way TypeScript reads them: every
// import, export-from and import() counts, type-only ones too, because a loop of types still
// means neither module can be understood without the other.

const SUFFIXES = ['', '.ts', '.tsx', '.js', '/index.ts'];

/**
 * The file a relative specifier names, or undefined for a package or a file that is not there.
 *
 * @param {string} fromFile
 * @param {string} specifier
 * @returns {string | undefined}
 */
export function resolveLocal(fromFile, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const suffix of SUFFIXES) {
    if (statSync(base + suffix, { throwIfNoEntry: false })?.isFile()) return base + suffix;
  }
  return undefined;
}

/** @type {Map<string, { mtimeMs: number, imports: string[] }>} */
const parsed = new Map();

/**
 * The shop's files that `file` imports, as it is on disk (re-read when it changes).
 *
 * @param {string} file
 * @returns {string[]}
 */
export function importsOf(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return [];
  const known = parsed.get(file);
  if (known?.mtimeMs === stat.mtimeMs) return known.imports;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const imports = [...new Set(importedFiles.flatMap((ref) => resolveLocal(file, ref.fileName) ?? []))];
  parsed.set(file, { mtimeMs: stat.mtimeMs, imports });
  return imports;
}

/**
 * Calls `check` with each module specifier in the linted file (the literal node), whatever
 * form the import takes.
 *
 * @param {(source: import('estree').Literal & { value: string }) => void} check
 * @returns {import('eslint').Rule.RuleListener}
 */
export function eachSpecifier(check) {
  /** @param {unknown} node */
  const visit = (node) => {
    const literal = /** @type {{ type?: string, value?: unknown } | null | undefined} */ (node);
    if (literal?.type === 'Literal' && typeof literal.value === 'string') {
      check(/** @type {import('estree').Literal & { value: string }} */ (/** @type {unknown} */ (literal)));
    }
  };
  return {
    ImportDeclaration: (node) => visit(node.source),
    ExportNamedDeclaration: (node) => visit(node.source),
    ExportAllDeclaration: (node) => visit(node.source),
    ImportExpression: (node) => visit(node.source),
    // `typeof import('./x.ts')` in a type, and `import x = require('./x.ts')`.
    TSImportType: (/** @type {unknown} */ node) => visit(child(node, 'argument', 'literal') ?? child(node, 'argument')),
    TSExternalModuleReference: (/** @type {unknown} */ node) => visit(child(node, 'expression')),
  };
}

/**
 * A property some levels down in a TypeScript node, which ESLint's own types do not describe.
 *
 * @param {unknown} node
 * @param {string[]} keys
 * @returns {unknown}
 */
function child(node, ...keys) {
  return keys.reduce((at, key) => (at && typeof at === 'object' ? /** @type {Record<string, unknown>} */ (at)[key] : undefined), node);
}
