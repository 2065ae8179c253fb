// Debian's Chromium, for the browser journeys (playwright.config.ts) and `npm run lighthouse`.
// Nothing here downloads a browser.

/** The flags every Chromium here runs with: headless, offline-quiet. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}
