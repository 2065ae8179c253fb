// @ts-check
import path from 'node:path';
import { eachSpecifier, importsOf, resolveLocal } from './module-graph.js';

/**
 * The shortest chain of imports from `start` back to `goal`, or undefined when there is none.
 *
 * @param {string} start
 * @param {string} goal
 * @returns {string[] | undefined}
 */
function routeBack(start, goal) {
  /** @type {Map<string, string | null>} */
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = /** @type {string} */ (queue[i]);
    for (const next of importsOf(file)) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === goal) {
        const route = [];
        for (let at = /** @type {string | null | undefined} */ (next); at; at = cameFrom.get(at)) route.unshift(at);
        return route;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/**
 * A module that needs itself to load, directly or through others, cannot be read or tested in
 * parts. Unlike import-x/no-cycle this counts type-only imports too: a loop of types ties the
 * modules together just the same. Only the shop's own modules are followed.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import that leads back to the importing module, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle: {{route}}. Move what both need into a module below them.' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {};
    const shown = (/** @type {string} */ f) => path.relative(context.cwd, f);
    return eachSpecifier((source) => {
      const target = resolveLocal(file, source.value);
      if (!target) return;
      const route = target === file ? [file] : routeBack(target, file);
      if (route) context.report({ node: source, messageId: 'cycle', data: { route: [file, ...route].map(shown).join(' → ') } });
    });
  },
};
