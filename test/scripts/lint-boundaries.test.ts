import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import rules guard the layering for whoever changes the code next: these prove they
// catch a new violation, not only that today's code passes. The type-aware rules read the
// probes and what they import from disk, so the probes are real files, written into a
// temporary copy of what lint reads (never into src/, which other test files are loading),
// and linted together in one run.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COPIED = ['package.json', 'tsconfig.json', 'eslint.config.js', 'lint', 'src'];

const PROBES: Record<string, string> = {
  'src/web/probe-reaches-in.ts':
    "import { MAX_COPIES_PER_TITLE } from '../features/catalog/per-title-limit.ts';\n\nexport const limit = MAX_COPIES_PER_TITLE;\n",
  'src/lib/probe-first.ts': "import { second } from './probe-second.ts';\n\nexport const first = (): number => second() + 1;\n",
  'src/lib/probe-second.ts': "import { first } from './probe-first.ts';\n\nexport const second = (): number => (first.length ? 1 : 0);\n",
  'src/lib/probe-type-first.ts':
    "import type { Second } from './probe-type-second.ts';\n\nexport interface First {\n  second?: Second;\n}\n",
  'src/lib/probe-type-second.ts': "import type { First } from './probe-type-first.ts';\n\nexport interface Second {\n  first?: First;\n}\n",
  // catalog is below cart: the book page may not reach up into it, not even for a type.
  'src/features/catalog/probe-reaches-up.ts':
    "import type { CartService } from '../cart/cart.service.ts';\n\nexport type Carts = CartService;\n",
  'src/features/admin/books/probe-sibling.ts': "import { lockOrder } from '../orders/order-lock.ts';\n\nexport const lock = lockOrder;\n",
  // A declared pair (cart -> catalog) passes.
  'src/features/cart/probe-declared.ts': "import { bookId } from '../catalog/catalog.schemas.ts';\n\nexport const id = bookId;\n",
};

let copy: string;
const messages = new Map<string, ESLint.LintResult['messages']>();

function ruleIds(probe: string): string[] {
  const found = messages.get(probe);
  if (!found) throw new Error(`${probe} was not linted`);
  return found.map((m) => m.ruleId ?? m.message);
}

describe('npm run lint', () => {
  beforeAll(async () => {
    copy = mkdtempSync(path.join(tmpdir(), 'shop-lint-'));
    for (const entry of COPIED) cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
    symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    for (const [file, text] of Object.entries(PROBES)) {
      mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      writeFileSync(path.join(copy, file), text);
    }
    const results = await new ESLint({ cwd: copy }).lintFiles(Object.keys(PROBES));
    for (const result of results) messages.set(path.relative(copy, result.filePath), result.messages);
  }, 180_000);

  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('refuses a module under src/web/ that imports feature code', () => {
    expect(ruleIds('src/web/probe-reaches-in.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('refuses two modules that import each other', () => {
    expect(ruleIds('src/lib/probe-first.ts')).toEqual(['shop/no-import-cycle']);
    expect(messages.get('src/lib/probe-first.ts')?.[0]?.message).toContain(
      'src/lib/probe-first.ts → src/lib/probe-second.ts → src/lib/probe-first.ts',
    );
  });

  it('refuses a loop made only of type imports', () => {
    expect(ruleIds('src/lib/probe-type-first.ts')).toEqual(['shop/no-import-cycle']);
  });

  it('refuses an import between feature folders that src/features/dependencies.js does not declare', () => {
    expect(ruleIds('src/features/catalog/probe-reaches-up.ts')).toEqual(['shop/feature-imports']);
    expect(messages.get('src/features/catalog/probe-reaches-up.ts')?.[0]?.message).toContain(
      'src/features/catalog may not import src/features/cart',
    );
    expect(ruleIds('src/features/admin/books/probe-sibling.ts')).toEqual(['shop/feature-imports']);
  });

  it('allows an import the list declares', () => {
    expect(ruleIds('src/features/cart/probe-declared.ts')).toEqual([]);
  });
});
