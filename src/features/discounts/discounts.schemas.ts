import { z } from 'zod';
import { dollarsToCents } from '../../lib/schema-fields.ts';
import { CODE_MAX_LENGTH, CODE_PATTERN } from './discount.rules.ts';

// The checkout's code field and the operator's discount form. Every message names the
// problem in words a person can act on; the pages show each beside its field.

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const code = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toUpperCase() : (v ?? '')),
  z
    .string({ error: 'Please enter a code.' })
    .min(1, 'Please enter a code.')
    .max(CODE_MAX_LENGTH, `A code has at most ${CODE_MAX_LENGTH} characters.`)
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
      .transform(dollarsToCents(`Please enter the ${what} in dollars and cents, like 5.00.`)),
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

/** The admin form's fields, each checked on its own. */
const discountFields = z.object({
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
});

type Fields = z.output<typeof discountFields>;

/**
 * The problems between fields (the percentage a percentage code needs, the amount a fixed one
 * needs, dates in order), each judged from the fields it depends on alone: a bad code elsewhere
 * must not hide them until the next submit.
 */
function crossFieldIssues(raw: Record<string, unknown>): Array<{ path: [keyof Fields]; message: string }> {
  const one = <K extends keyof Fields>(key: K): Fields[K] | undefined => {
    const parsed = discountFields.shape[key].safeParse(raw[key]);
    return parsed.success ? (parsed.data as Fields[K]) : undefined;
  };
  const issues: Array<{ path: [keyof Fields]; message: string }> = [];
  const kind = one('kind');
  if (kind === 'percentage' && !isPercent(one('percent'))) {
    issues.push({ path: ['percent'], message: 'The percentage must be a whole number from 1 to 100.' });
  }
  if (kind === 'fixed' && discountFields.shape.amount.safeParse(raw.amount).success && !((one('amount') ?? 0) > 0)) {
    issues.push({ path: ['amount'], message: 'Please enter the amount the code takes off, like 5.00.' });
  }
  const [startsOn, endsOn] = [one('startsOn'), one('endsOn')];
  if (startsOn && endsOn && endsOn < startsOn)
    issues.push({ path: ['endsOn'], message: 'The end date must not be before the start date.' });
  return issues;
}

const isPercent = (text: string | undefined): boolean => /^\d{1,3}$/.test(text ?? '') && Number(text) >= 1 && Number(text) <= 100;

/** The admin form: every problem at once, each field's own and those between fields. */
export const discountForm = z.unknown().transform((raw, ctx) => {
  const body = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const fields = discountFields.safeParse(body);
  const issues = [...(fields.success ? [] : fields.error.issues), ...crossFieldIssues(body)];
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  if (!fields.success || issues.length) return z.NEVER;
  const form = fields.data;
  return {
    code: form.code,
    kind: form.kind,
    percent: form.kind === 'percentage' ? Number(form.percent) : 0,
    amount: form.kind === 'fixed' ? (form.amount ?? 0) : 0,
    minimumSubtotal: form.minimumSubtotal ?? 0,
    startsOn: form.startsOn ?? null,
    endsOn: form.endsOn ?? null,
    maxUses: form.maxUses ?? null,
    active: form.active,
  };
});

export type DiscountInput = z.output<typeof discountForm>;
export type DiscountField = keyof z.input<typeof discountFields>;
