import { z } from 'zod';
import { DAY_MS, PERIODS } from './numbers.rules.ts';

/** GET /admin?days=30|90: the period the numbers cover (30 without it). */
export const numbersQuery = z.object({
  days: z.preprocess(
    (value) => (value === undefined || value === '' ? 30 : Number(value)),
    z.literal(PERIODS, { error: 'Choose the last 30 or the last 90 days.' }),
  ),
});

/** A year and a day at most: one export stays a size a spreadsheet opens comfortably. */
export const MAX_EXPORT_DAYS = 366;

const isoDay = (field: 'start' | 'end') =>
  z
    .string({ error: `Choose ${field === 'end' ? 'an' : 'a'} ${field} date.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `The ${field} date must be a date like 2026-11-01.`)
    .refine(
      (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      `The ${field} date is not a real day.`,
    );

/** GET /admin/exports/*.csv?from=YYYY-MM-DD&to=YYYY-MM-DD: UTC days, both included. */
export const exportRange = z
  .object({ from: isoDay('start'), to: isoDay('end') })
  .refine((r) => r.from <= r.to, 'The start date must be on or before the end date.')
  .refine((r) => (Date.parse(r.to) - Date.parse(r.from)) / DAY_MS < MAX_EXPORT_DAYS, `Choose at most ${MAX_EXPORT_DAYS} days at a time.`);

/** The export forms on the /admin home; an export asked with dates it cannot use comes back to them (see rangeFallback). */
export const EXPORTS = ['orders', 'sales-tax'] as const;
export type ExportName = (typeof EXPORTS)[number];

const typedDay = z.string().max(40).optional().catch(undefined);

/** GET /admin?export=orders&from=&to=: which export form to fill in again, with the dates as asked. */
export const exportQuery = z.object({
  export: z.enum(EXPORTS).optional().catch(undefined),
  from: typedDay,
  to: typedDay,
});

/**
 * The range an export form shows again after a download it refused, and why. Reversed dates are
 * put the right way round (the days meant are plain); anything else falls back to the period the
 * page shows. Never an error: the operator is one click from the file.
 */
export function rangeFallback(
  asked: { from?: string | undefined; to?: string | undefined },
  /** The page's period, and it in words for a sentence ("the last 30 days"). */
  period: { from: string; to: string; label: string },
): { range: { from: string; to: string }; notice: string | null } {
  const parsed = exportRange.safeParse(asked);
  if (parsed.success) return { range: parsed.data, notice: null };
  const back = `The dates are back to ${period.label}: check them and download again.`;
  const swapped = exportRange.safeParse({ from: asked.to, to: asked.from });
  if (swapped.success) {
    return {
      range: swapped.data,
      notice: 'The start date was after the end date, so the two are swapped round: check them and download again.',
    };
  }
  const first = parsed.error.issues[0]!;
  return { range: { from: period.from, to: period.to }, notice: `${first.message} ${back}` };
}
