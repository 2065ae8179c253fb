import { z } from 'zod';
import { dollarsToCents } from '../../lib/schema-fields.ts';
import { normaliseIsbn13 } from './isbn.ts';

// How each field of a book is read from the back office's form (book-fields.ts names which rule
// is whose). Every message names the field's problem in words the operator can act on; the
// page shows each beside its field.

export const COMING_SOON = '#coming-soon';

/** The most copies the shop keeps count of for one title: a print run, with room to spare. */
export const MAX_STOCK = 100_000;
export const MAX_AGE = 18;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const required = (what: string, max: number) =>
  z.preprocess(
    (v) => v ?? '',
    z
      .string({ error: `Please enter the ${what}.` })
      .trim()
      .min(1, `Please enter the ${what}.`)
      .max(max, `The ${what} is too long (at most ${max} characters).`),
  );

/** Copies: a whole number from 0. */
export const copies = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string({ error: 'Please enter the number of copies.' })
    .min(1, 'Please enter the number of copies.')
    .regex(/^-?\d+$/, 'Stock must be a whole number of copies, like 12.')
    .transform(Number)
    .pipe(
      z
        .number()
        .min(0, 'Stock cannot be negative.')
        .max(MAX_STOCK, `Stock can be at most ${MAX_STOCK.toLocaleString('en-US')} copies.`),
    ),
);

/** "12.99" or "$12.99" into cents. */
export const price = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().replace(/^\$/, '') : v),
  z
    .string({ error: 'Please enter the price, like 12.99.' })
    .min(1, 'Please enter the price, like 12.99.')
    .regex(/^-?\d{1,7}(\.\d{1,2})?$/, 'Please enter the price in dollars and cents, like 12.99.')
    .transform(dollarsToCents('Please enter the price in dollars and cents, like 12.99.'))
    .refine((cents) => cents >= 0, 'The price cannot be negative.')
    .refine((cents) => cents > 0, 'The price must be more than $0.00.'),
);

export const buyLink = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(500, `The ${what} link is too long.`)
      .refine(
        (v) => v === COMING_SOON || /^https:\/\/[^\s"<>]+$/.test(v),
        `The ${what} link must start with https://, or be ${COMING_SOON}.`,
      )
      .optional(),
  );

export const isbn = z.preprocess(
  blankToUndefined,
  z
    .string()
    .transform((v, ctx) => {
      const digits = normaliseIsbn13(v);
      if (!digits) {
        ctx.addIssue({ code: 'custom', message: 'That is not a valid ISBN-13: check the 13 digits (the last one is a check digit).' });
        return z.NEVER;
      }
      return digits;
    })
    .optional(),
);

/** "3-5": two whole numbers from 0 to 18, the first not above the second. */
export const ageRange = z.preprocess(
  (v) => v ?? '',
  z
    .string()
    .trim()
    .min(1, 'Please enter the age range, like 3-5.')
    .transform((v, ctx) => {
      const match = /^(\d{1,2})\s*[-–]\s*(\d{1,2})$/.exec(v);
      const [min, max] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
      if (!match) ctx.addIssue({ code: 'custom', message: 'Enter the age range as two whole numbers, like 3-5.' });
      else if (max > MAX_AGE) ctx.addIssue({ code: 'custom', message: `Ages go up to ${MAX_AGE}.` });
      else if (min > max) ctx.addIssue({ code: 'custom', message: 'The first age must not be above the second, like 3-5.' });
      else return `${min}-${max}`;
      return z.NEVER;
    }),
);

export const publishedOn = z.preprocess(
  (v) => v ?? '',
  z
    .string()
    .min(1, 'Please enter the publication date.')
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the publication date as YYYY-MM-DD.')
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      'That is not a real date.',
    ),
);

export const pages = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'Pages must be a whole number, like 32.')
    .transform(Number)
    .pipe(z.number().min(1, 'Pages must be at least 1.').max(5000, 'Pages can be at most 5000.'))
    .optional(),
);

/** A checkbox: sent ("on") when ticked, left out of the form when not. */
export const tick = z.preprocess(
  (v) => (v === undefined || v === null ? '' : v),
  z.enum(['', 'on', 'true', 'false'], { error: 'Tick the box, or leave it empty.' }).transform((v) => v === 'on' || v === 'true'),
);

/** The first print run: a whole number of copies from 1; empty for no limit. */
export const preorderLimit = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'The pre-order limit must be a whole number of copies, like 500; empty for no limit.')
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, 'The pre-order limit must be at least 1 copy; empty for no limit.')
        .max(MAX_STOCK, `The pre-order limit can be at most ${MAX_STOCK.toLocaleString('en-US')} copies.`),
    )
    .optional(),
);
