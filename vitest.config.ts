import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const SHARED = { testTimeout: 20_000, hookTimeout: 30_000 };

// `npm test`: unit, API and component tests. Browser journeys run under Playwright (playwright.config.ts).
export default defineConfig({
  test: {
    // One file more than the cores: a file spends part of its time waiting on its database, its
    // mail server or a child process, and vitest's default (one fewer than the cores) leaves a
    // two-core machine running one file at a time.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        test: {
          ...SHARED,
          name: 'shop',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/islands/**', 'node_modules/**'],
          // A worker loads the shop's modules once and runs file after file on them: each file
          // still builds its own shop on a database of its own, so only module state is shared,
          // and a file must leave none behind (timers, connections, patched modules).
          isolate: false,
        },
      },
      {
        test: {
          ...SHARED,
          name: 'islands',
          // The islands' tests replace modules (vi.mock) and draw into a DOM of their own.
          include: ['test/islands/**/*.test.ts', 'test/islands/**/*.test.tsx'],
        },
      },
    ],
  },
});
