import { z } from 'zod';
import { CODE_PATTERN } from './discount.rules.ts';

// The checkout's code field and the operator's discount form. Every message names the
// problem in words a person can act on; the pages show each beside its field.

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const code = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() : (v ?? '')),
  z
    .string({ error: 'Please enter a code.' })
    .min(1, 'Please enter a code.')
    .max(40, 'A code has at most 40 characters.')
    .regex(CODE_PATTERN, 'A code has only letters, digits and hyphens.'),
);

/** POST /checkout/discount. */
export const enteredCode = z.object({ code });

/** "12.99" or "$12.99" into cents, 0 or more. */
const dollars = (what: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().replace(/^\$/, '') : v),
    z
      .string({ error: `Please enter the ${what}, like 5.00.` })
      .regex(/^\d{1,7}(\.\d{1,2})?$/, `Please enter the ${what} in dollars and cents, like 5.00.`)
      .transform((v) => Math.round(Number(v) * 100)),
  );

const day = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, `Enter the ${what} as YYYY-MM-DD.`)
      .refine((v) => new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'That is not a real date.')
      .optional(),
  );

/** The admin form; which of percent and amount is needed depends on the kind. */
export const discountForm = z
  .object({
    code,
    kind: z.enum(['percentage', 'fixed', 'free_shipping'], { error: 'Choose what the code gives.' }),
    percent: z.preprocess(blankToUndefined, z.string().trim().optional()),
    amount: z.preprocess(blankToUndefined, dollars('amount').optional()),
    minimumSubtotal: z.preprocess(blankToUndefined, dollars('minimum subtotal').optional()),
    startsOn: day('start date'),
    endsOn: day('end date'),
    maxUses: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .regex(/^\d+$/, 'The maximum number of uses must be a whole number, like 100, or empty for no limit.')
        .transform(Number)
        .pipe(z.number().min(1, 'The maximum number of uses must be at least 1.').max(1_000_000, 'That is too many uses.'))
        .optional(),
    ),
    active: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
  })
  .transform((form, ctx) => {
    let percent = 0;
    if (form.kind === 'percentage') {
      percent = /^\d{1,3}$/.test(form.percent ?? '') ? Number(form.percent) : NaN;
      if (!(percent >= 1 && percent <= 100))
        ctx.addIssue({ code: 'custom', path: ['percent'], message: 'The percentage must be a whole number from 1 to 100.' });
    }
    const amount = form.kind === 'fixed' ? (form.amount ?? 0) : 0;
    if (form.kind === 'fixed' && amount <= 0)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Please enter the amount the code takes off, like 5.00.' });
    if (form.startsOn && form.endsOn && form.endsOn < form.startsOn)
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'The end date must not be before the start date.' });
    return {
      code: form.code,
      kind: form.kind,
      percent: form.kind === 'percentage' ? percent : 0,
      amount,
      minimumSubtotal: form.minimumSubtotal ?? 0,
      startsOn: form.startsOn ?? null,
      endsOn: form.endsOn ?? null,
      maxUses: form.maxUses ?? null,
      active: form.active,
    };
  });

export type DiscountInput = z.output<typeof discountForm>;
export type DiscountField = keyof z.input<typeof discountForm>;
