import { defineConfig } from 'vitest/config';

const SHARED = { testTimeout: 20_000, hookTimeout: 30_000 };

// `npm test`: unit, API and component tests. Browser journeys run under Playwright (playwright.config.ts).
export default defineConfig({
  test: {
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
