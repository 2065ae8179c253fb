import { z } from 'zod';
import { toCents, type Cents } from './money.ts';

const MAX_ID = 2_147_483_647;

/**
 * A whole number sent as a JSON number or as text (URLs and HTML forms send text).
 * Unlike z.coerce it refuses arrays, objects and booleans, which Number() would turn into numbers.
 */
export function wholeNumber(what: string, rules: (n: z.ZodNumber) => z.ZodNumber = (n) => n) {
  const message = `${what} must be a whole number`;
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^[+-]?\d+(\.\d+)?$/, message),
      ],
      { message },
    )
    .transform(Number)
    .pipe(rules(z.number({ message }).int(message)));
}

/** A database id: a positive whole number that fits the column. */
export function recordId(what: string) {
  return wholeNumber(what, (n) => n.positive(`${what} must be a positive whole number`).max(MAX_ID, `${what} is too large`));
}

/**
 * The transform that turns a field's amount in dollars into cents, through toCents so every
 * form and API reads money the same exact way. An amount toCents refuses (a third decimal, one
 * too large) becomes the field's own message rather than a thrown error.
 */
export function dollarsToCents(message: string) {
  return (value: string | number, ctx: z.RefinementCtx): Cents => {
    try {
      return toCents(value);
    } catch {
      // toCents refusing the amount (see above): the field's problem, shown with its message.
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  };
}
