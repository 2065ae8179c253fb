import { describe, expect, it } from 'vitest';
import { formatReport, gateFailures, reportPage, type LighthouseResult } from '../../scripts/lighthouse-report.ts';

function result(
  scores: Record<string, number | null>,
  audits: LighthouseResult['audits'] = {},
  refs: Record<string, { id: string; weight: number }[]> = {},
): LighthouseResult {
  return {
    categories: Object.fromEntries(Object.entries(scores).map(([id, score]) => [id, { score, auditRefs: refs[id] ?? [] }])),
    audits,
  };
}

const perfect = { performance: 1, accessibility: 1, 'best-practices': 1, seo: 1 };

describe('npm run lighthouse: the report', () => {
  it('passes pages that score 100 in accessibility, best practices and SEO, whatever their speed', () => {
    const reports = [reportPage('/', result({ ...perfect, performance: 0.42 }))];
    expect(reports[0]!.scores.performance).toBe(42);
    expect(gateFailures(reports)).toEqual([]);
  });

  it('fails a page below 100 in any gated category, naming the page and the category', () => {
    const reports = [
      reportPage('/', result(perfect)),
      reportPage('/books', result({ ...perfect, accessibility: 0.96 })),
      reportPage('/login', result({ ...perfect, 'best-practices': 0.99 })),
      reportPage('/checkout', result({ ...perfect, seo: 0.92 })),
    ];
    expect(gateFailures(reports)).toEqual(['/books: accessibility 96', '/login: best-practices 99', '/checkout: seo 92']);
  });

  it('fails a gated category Lighthouse could not score', () => {
    expect(gateFailures([reportPage('/', result({ ...perfect, seo: null }))])).toEqual(['/: seo not scored']);
  });

  it('lists the titles of the weighted audits that cost points, and prints them under the table', () => {
    const lhr = result(
      { ...perfect, seo: 0.9 },
      {
        'meta-description': { title: 'Document does not have a meta description', score: 0, scoreDisplayMode: 'binary' },
        'structured-data': { title: 'Structured data is valid', score: null, scoreDisplayMode: 'manual' },
        hreflang: { title: 'Document has a valid hreflang', score: 1, scoreDisplayMode: 'binary' },
        'robots-txt': { title: 'robots.txt is not valid', score: 0, scoreDisplayMode: 'notApplicable' },
        'crawlable-anchors': { title: 'Links are not crawlable', score: 0, scoreDisplayMode: 'binary' },
      },
      {
        seo: [
          { id: 'meta-description', weight: 1 },
          { id: 'structured-data', weight: 0 },
          { id: 'hreflang', weight: 1 },
          { id: 'robots-txt', weight: 1 },
          { id: 'crawlable-anchors', weight: 0 },
        ],
      },
    );
    const report = reportPage('/books', lhr);
    expect(report.failing.seo).toEqual(['Document does not have a meta description']);
    const printed = formatReport([report]);
    expect(printed).toContain('| /books | 100 | 100 | 100 | 90 |');
    expect(printed).toContain('/books, seo 90:\n  - Document does not have a meta description');
  });
});
