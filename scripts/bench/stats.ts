// Pure summaries of benchmark rounds: no I/O, so they are unit-tested (test/scripts/bench-stats.test.ts).

/** One autocannon round, reduced to what the table shows. */
export interface Round {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx/3xx, plus connection errors and timeouts. */
  errors: number;
  /** Those errors by status or error code, when the load generator tells them apart. */
  errorKinds?: Record<string, number>;
  requests: number;
  /** The server's CPU time (user + system) during the round, in ms; undefined when unknown. */
  cpuMs: number | undefined;
}

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The value below which `p` percent of `values` fall (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
}

export function spread(values: readonly number[]): Spread {
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

export interface Summary {
  rps: Spread;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  errorKinds: Record<string, number>;
  /** Median over the rounds of CPU ms divided by requests answered. */
  cpuMsPerRequest: number | undefined;
}

export function summarise(rounds: readonly Round[]): Summary {
  const cpu = rounds.filter((r) => r.cpuMs !== undefined && r.requests > 0).map((r) => r.cpuMs! / r.requests);
  return {
    rps: spread(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    errorKinds: addUp(rounds.map((r) => r.errorKinds ?? {})),
    cpuMsPerRequest: cpu.length ? median(cpu) : undefined,
  };
}

function addUp(counts: readonly Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const count of counts) for (const [kind, n] of Object.entries(count)) total[kind] = (total[kind] ?? 0) + n;
  return total;
}

/** Counts by kind as words: "2× 503, 1× ECONNRESET". */
export function byKind(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([kind, n]) => `${n}× ${kind}`)
    .join(', ');
}

/** Errors as the table shows them: "0", or "3 (2× 503, 1× ECONNRESET)" when their kinds are known. */
export function errorsCell(summary: Summary): string {
  const kinds = byKind(summary.errorKinds);
  return kinds ? `${summary.errors} (${kinds})` : String(summary.errors);
}

/** Median throughput as a multiple of a reference's median, e.g. "0.31x"; "-" without a reference. */
export function ratio(subject: Summary, reference: Summary | undefined): string {
  if (!reference || reference.rps.median === 0) return '-';
  return `${(subject.rps.median / reference.rps.median).toFixed(2)}x`;
}

export interface Row {
  setup: string;
  scenario: string;
  summary: Summary;
  /** express.static's rounds taken in turns with this row's, which its ratio is then made against. */
  reference?: Summary;
}

const num = (n: number, digits = 0) => n.toFixed(digits);

/** The results table: one line per scenario, throughput as min / median / max of the rounds. */
export function markdownTable(rows: readonly Row[], references: { bare?: Summary; static?: Summary }): string {
  const lines = [
    '| setup | scenario | req/s min / median / max | p50 ms | p99 ms | × bare node:http | × express.static | CPU ms/request | errors |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { setup, scenario, summary: s, reference } of rows) {
    const cpu = s.cpuMsPerRequest === undefined ? '-' : num(s.cpuMsPerRequest, 3);
    lines.push(
      `| ${setup} | ${scenario} | ${num(s.rps.min)} / ${num(s.rps.median)} / ${num(s.rps.max)} | ${num(s.p50Ms, 1)} | ${num(s.p99Ms, 1)} | ${ratio(s, references.bare)} | ${ratio(s, reference ?? references.static)} | ${cpu} | ${errorsCell(s)} |`,
    );
  }
  return lines.join('\n');
}
