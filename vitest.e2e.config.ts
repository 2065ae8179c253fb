import { defineConfig } from 'vitest/config';

// `npm run test:e2e`: browser journeys against the real server (test/e2e/harness.ts).
// `npm test` (vitest.config.ts) excludes test/e2e.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    // Each file starts its own shop and Chromium; one at a time keeps a small CI machine steady.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // A failed journey is a real failure; retries would hide flaky pages.
    retry: 0,
  },
});
