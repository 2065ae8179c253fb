// What the built assets may weigh, gzipped: `npm run budget` (scripts/budget.ts) holds the pages
// a parent browses to all three, and `npm test` holds the stylesheet to its own
// (test/web/stylesheets.test.ts).

/** The script a page runs before the parent touches anything. */
export const BEFORE_INTERACTION_KB = 10;
/** The same page with its islands open (the cart drawer, say). */
export const WITH_ISLANDS_KB = 75;
/** The stylesheet every page loads: Pico's base and the shop's rules, refusals included. */
export const STYLESHEET_KB = 12;
