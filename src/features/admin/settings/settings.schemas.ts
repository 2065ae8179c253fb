import { z } from 'zod';

/** POST /admin/settings, from the settings page or the low-stock view. */
export const thresholdInput = z.object({
  threshold: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: 'Please enter a number of copies.' })
      .regex(/^-?\d+$/, 'The threshold must be a whole number of copies, like 3.')
      .transform(Number)
      .pipe(z.number().min(0, 'The threshold cannot be negative.').max(1000, 'The threshold can be at most 1000.')),
  ),
  /** Where to go back to: the settings page or the low-stock view. */
  from: z.enum(['settings', 'low-stock']).default('settings'),
});
