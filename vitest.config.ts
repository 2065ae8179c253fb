import { defineConfig } from 'vitest/config';

// `npm test`: unit, API and component tests. Browser journeys run under Playwright (playwright.config.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file gets its own database (a temp SQLite file or a fresh MariaDB schema).
    fileParallelism: true,
  },
});
