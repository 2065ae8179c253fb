// @ts-check
import path from 'node:path';
import { eachSpecifier } from './module-graph.js';

/**
 * Every feature the list names, as importer or imported.
 *
 * @param {Readonly<Record<string, Readonly<Record<string, string>>>>} dependencies
 * @returns {string[]}
 */
export function declaredFeatures(dependencies) {
  return [...new Set(Object.entries(dependencies).flatMap(([from, uses]) => [from, ...Object.keys(uses)]))];
}

/**
 * The feature a file belongs to: the longest declared feature folder holding it (so
 * admin/books, not admin), else its first folder under src/features/; undefined outside them.
 *
 * @param {string} featuresDir
 * @param {readonly string[]} features
 * @param {string} file
 * @returns {string | undefined}
 */
export function featureOf(featuresDir, features, file) {
  const relative = path.relative(featuresDir, file).split(path.sep).join('/');
  if (relative.startsWith('../') || path.isAbsolute(relative) || !relative.includes('/')) return undefined;
  const holding = features.filter((name) => relative.startsWith(`${name}/`)).sort((a, b) => b.length - a.length);
  return holding[0] ?? relative.split('/')[0];
}

/** @typedef {{ featuresDir: string, dependencies: Record<string, Record<string, string>> }} FeatureImportsOptions */

/**
 * One feature folder imports another only where src/features/dependencies.js says so, with
 * its reason: the list is the one place the layering is written down, and lint holds the code
 * to it, type-only imports included.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
export const featureImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports between feature folders that src/features/dependencies.js does not declare' },
    schema: [
      {
        type: 'object',
        properties: { featuresDir: { type: 'string' }, dependencies: { type: 'object' } },
        required: ['featuresDir', 'dependencies'],
        additionalProperties: false,
      },
    ],
    messages: {
      undeclared:
        'src/features/{{from}} may not import src/features/{{to}}: the pair is not in src/features/dependencies.js. ' +
        'Move what both need into the lower feature, or declare the pair there with its reason.',
    },
  },
  create(context) {
    const options = /** @type {unknown[]} */ (context.options)[0];
    const { featuresDir, dependencies } = /** @type {FeatureImportsOptions} */ (options);
    const features = declaredFeatures(dependencies);
    const file = context.physicalFilename;
    const from = path.isAbsolute(file) ? featureOf(featuresDir, features, file) : undefined;
    if (!from) return {};
    return eachSpecifier((source) => {
      if (!source.value.startsWith('./') && !source.value.startsWith('../')) return;
      const to = featureOf(featuresDir, features, path.resolve(path.dirname(file), source.value));
      if (!to || to === from || Object.hasOwn(dependencies[from] ?? {}, to)) return;
      context.report({ node: source, messageId: 'undeclared', data: { from, to } });
    });
  },
};
