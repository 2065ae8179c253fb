import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { declaredFeatures, featureOf } from '../../lint/feature-imports.js';
import { importsOf } from '../../lint/module-graph.js';
import { FEATURE_DEPENDENCIES } from '../../src/features/dependencies.js';

// Lint holds the code to src/features/dependencies.js; this holds the list to the code, so it
// stays the true map of which feature builds on which.
const featuresDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/features');
const features = declaredFeatures(FEATURE_DEPENDENCIES);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** "from -> to" for every import today's code makes from one feature into another. */
function pairsInUse(): Set<string> {
  const pairs = new Set<string>();
  for (const file of sourceFiles(featuresDir)) {
    const from = featureOf(featuresDir, features, file);
    for (const target of importsOf(file)) {
      const to = featureOf(featuresDir, features, target);
      if (from && to && from !== to) pairs.add(`${from} -> ${to}`);
    }
  }
  return pairs;
}

describe('src/features/dependencies.js', () => {
  it('names only feature folders that exist', () => {
    const missing = features.filter((name) => !statSync(path.join(featuresDir, name), { throwIfNoEntry: false })?.isDirectory());
    expect(missing).toEqual([]);
  });

  it('gives every pair a reason', () => {
    const blank = Object.entries(FEATURE_DEPENDENCIES).flatMap(([from, uses]) =>
      Object.entries(uses)
        .filter(([, reason]) => reason.trim().length < 10)
        .map(([to]) => `${from} -> ${to}`),
    );
    expect(blank).toEqual([]);
  });

  it('has no loop: no feature builds, however indirectly, on itself', () => {
    const loops: string[] = [];
    const visit = (feature: string, route: string[]) => {
      if (route.includes(feature)) return void loops.push([...route.slice(route.indexOf(feature)), feature].join(' -> '));
      for (const next of Object.keys(FEATURE_DEPENDENCIES[feature] ?? {})) visit(next, [...route, feature]);
    };
    for (const feature of features) visit(feature, []);
    expect(loops).toEqual([]);
  });

  it('declares no pair the code does not use', () => {
    const inUse = pairsInUse();
    const declared = Object.entries(FEATURE_DEPENDENCIES).flatMap(([from, uses]) => Object.keys(uses).map((to) => `${from} -> ${to}`));
    expect(declared.filter((pair) => !inUse.has(pair))).toEqual([]);
  });
});
