// Reading Lighthouse results for `npm run lighthouse`: the four scores of each page, the audits
// that cost points, and which pages fail the gate. Pure, so the gate itself is tested.

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Speed is the performance issue's goal: reported here, never gated. */
export const GATED: readonly Category[] = ['accessibility', 'best-practices', 'seo'];

/** The part of Lighthouse's result (LHR) this report reads. */
export interface LighthouseResult {
  categories: Partial<Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>>;
  audits: Record<string, { title: string; score: number | null; scoreDisplayMode: string }>;
}

export interface PageReport {
  page: string;
  /** 0 to 100, or null when Lighthouse could not score the category. */
  scores: Record<Category, number | null>;
  /** Titles of the audits that cost the category points. */
  failing: Record<Category, string[]>;
}

export function reportPage(page: string, lhr: LighthouseResult): PageReport {
  const scores = {} as Record<Category, number | null>;
  const failing = {} as Record<Category, string[]>;
  for (const category of CATEGORIES) {
    const found = lhr.categories[category];
    scores[category] = found?.score == null ? null : Math.round(found.score * 100);
    failing[category] = (found?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.scoreDisplayMode !== 'notApplicable' && audit.score !== null && audit.score < 1)
      .map((audit) => audit!.title);
  }
  return { page, scores, failing };
}

/** One line per page and gated category below 100 (or unscored); empty when all pass. */
export function gateFailures(reports: PageReport[]): string[] {
  return reports.flatMap((r) =>
    GATED.filter((c) => r.scores[c] === null || r.scores[c] < 100).map((c) => `${r.page}: ${c} ${r.scores[c] ?? 'not scored'}`),
  );
}

export function formatReport(reports: PageReport[]): string {
  const lines = [`| page | ${CATEGORIES.join(' | ')} |`, `|---|${CATEGORIES.map(() => '---:').join('|')}|`];
  for (const r of reports) lines.push(`| ${r.page} | ${CATEGORIES.map((c) => r.scores[c] ?? '-').join(' | ')} |`);
  for (const r of reports) {
    for (const c of CATEGORIES) {
      if (r.scores[c] === 100 || !r.failing[c].length) continue;
      lines.push('', `${r.page}, ${c} ${r.scores[c] ?? '-'}:`, ...r.failing[c].map((title) => `  - ${title}`));
    }
  }
  return lines.join('\n');
}
