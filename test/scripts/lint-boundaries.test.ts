import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// The import rules guard the layering for whoever changes the code next: these prove they
// catch a new violation, not only that today's code passes. The probes are real files under
// src/ (the type-aware rules read them from disk), with a unique name, removed afterwards.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const prefix = `lint-probe-${randomUUID().slice(0, 8)}`;
const created: string[] = [];

function probe(folder: string, name: string, text: string): string {
  const file = path.join(root, folder, `${prefix}-${name}`);
  writeFileSync(file, text);
  created.push(file);
  return file;
}

async function ruleIds(file: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintFiles([file]);
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('npm run lint', () => {
  afterAll(() => {
    for (const file of created) rmSync(file, { force: true });
  });

  it('refuses a module under src/web/ that imports feature code', async () => {
    const file = probe(
      'src/web',
      'reaches-in.ts',
      "import { MAX_COPIES_PER_TITLE } from '../features/cart/cart.rules.ts';\n\nexport const limit = MAX_COPIES_PER_TITLE;\n",
    );
    expect(await ruleIds(file)).toEqual(['import-x/no-restricted-paths']);
  }, 120_000);

  it('refuses two modules that import each other', async () => {
    const first = probe(
      'src/lib',
      'first.ts',
      `import { second } from './${prefix}-second.ts';\n\nexport const first = (): number => second() + 1;\n`,
    );
    probe(
      'src/lib',
      'second.ts',
      `import { first } from './${prefix}-first.ts';\n\nexport const second = (): number => (first.length ? 1 : 0);\n`,
    );
    expect(await ruleIds(first)).toEqual(['import-x/no-cycle']);
  }, 120_000);
});
