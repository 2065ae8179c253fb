import { describe, expect, it } from 'vitest';
import type { BookDto } from '../../../src/features/catalog/book.dto.ts';
import { catalogueSnapshots } from '../../../src/features/catalog/catalogue-snapshot.ts';
import type { CatalogueWatch } from '../../../src/features/catalog/catalogue-watch.ts';

const book = (id: number, inStock: number) => ({ id, inStock }) as BookDto;

function setUp() {
  const watch = {
    version: 1,
    current() {
      return Promise.resolve(this.version);
    },
    onChange() {},
  } satisfies CatalogueWatch & { version: number };
  const table = { rows: [book(1, 5), book(2, 0)], reads: 0, fail: false, slow: undefined as Promise<void> | undefined };
  const snapshot = catalogueSnapshots(
    watch,
    async () => {
      table.reads++;
      if (table.slow) await table.slow;
      if (table.fail) throw new Error('database away');
      return table.rows.map((row) => ({ ...row }));
    },
    (read) => read,
    { waitMs: 50 },
  );
  return { watch, table, snapshot };
}

describe('the catalogue snapshot', () => {
  it('reads the books once per catalogue version', async () => {
    const { watch, table, snapshot } = setUp();
    await Promise.all([snapshot(), snapshot(), snapshot()]);
    expect(table.reads).toBe(1);
    table.rows = [book(1, 4), book(2, 0)];
    watch.version = 2;
    const after = await snapshot();
    expect(table.reads).toBe(2);
    expect(after.version).toBe(2);
    expect(after.byId.get(1)?.inStock).toBe(4);
  });

  it('tries again after a failed read instead of keeping the failure', async () => {
    const { table, snapshot } = setUp();
    table.fail = true;
    await expect(snapshot()).rejects.toThrow('database away');
    table.fail = false;
    expect((await snapshot()).books).toHaveLength(2);
  });

  it('hands out books no request can change for the next one', async () => {
    const { snapshot } = setUp();
    const { books } = await snapshot();
    expect(() => {
      (books[0] as { inStock: number }).inStock = 99;
    }).toThrow(TypeError);
    expect((await snapshot()).byId.get(1)?.inStock).toBe(5);
  });

  it('while a newer version is read, gives the snapshot before to everyone but the request that reads it', async () => {
    const { watch, table, snapshot } = setUp();
    await snapshot();
    let finish: () => void = () => {};
    table.slow = new Promise<void>((resolve) => (finish = resolve));
    table.rows = [book(1, 3), book(2, 0)];
    watch.version = 2;
    const reader = snapshot();
    // Others asking meanwhile get version 1 at once, and start no read of their own.
    const others = await Promise.all([snapshot(), snapshot()]);
    expect(others.map((s) => s.version)).toEqual([1, 1]);
    expect(table.reads).toBe(2);
    finish();
    expect((await reader).version).toBe(2);
    expect((await snapshot()).byId.get(1)?.inStock).toBe(3);
  });

  it('gives the reading request the snapshot before when the read outlasts its wait', async () => {
    const { watch, table, snapshot } = setUp();
    await snapshot();
    let finish: () => void = () => {};
    table.slow = new Promise<void>((resolve) => (finish = resolve));
    watch.version = 2;
    expect((await snapshot()).version).toBe(1);
    finish();
    await new Promise((r) => setTimeout(r, 10));
    expect((await snapshot()).version).toBe(2);
    expect(table.reads).toBe(2);
  });
});
