// Small readings of server-rendered HTML for supertest assertions.

/** Where a page's heading levels skip one on the way down (h1 -> h3): each as "h1 -> h3". */
export function skippedHeadingLevels(html: string): string[] {
  const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
  return levels.flatMap((level, i) => (i > 0 && level > levels[i - 1]! + 1 ? [`h${levels[i - 1]} -> h${level}`] : []));
}
