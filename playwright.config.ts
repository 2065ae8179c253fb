import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './test/e2e/chromium.ts';

// `npm run test:e2e`: browser journeys against the real server (test/e2e/harness.ts).
// `npm test` (vitest.config.ts) excludes test/e2e.
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.e2e.ts',
  // Each file starts its own shop on a fresh database (the per-address limits and the order
  // numbers would otherwise depend on which files ran before); its tests run in order, one
  // after the other, as its journeys build on each other's accounts and orders.
  fullyParallel: false,
  // Two files at a time: a shop and a Chromium each, on a two-core machine.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  timeout: 120_000,
  // A failed journey is a real failure; retries would hide flaky pages.
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  // Playwright's own output (traces of failures); the journeys' screenshots go to test-results/screenshots.
  outputDir: 'test-results/playwright',
  use: {
    browserName: 'chromium',
    // Debian's Chromium: nothing downloads a browser.
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS, timeout: 60_000 },
  },
});
