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
