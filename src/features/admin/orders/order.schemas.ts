import { z } from 'zod';
import { dollarsToCents, recordId } from '../../../lib/schema-fields.ts';
import { CARRIERS } from '../../orders/carriers.ts';
import { requestKey } from '../../orders/orders.schemas.ts';

const text = (what: string, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string().trim().min(1, `Please enter the ${what}.`).max(max, `The ${what} is too long.`),
  );

export const shipInput = z.object({
  carrier: z.enum(CARRIERS, { message: 'Please choose a carrier.' }),
  trackingNumber: text('tracking number', 60).pipe(
    z.string().regex(/^[A-Za-z0-9 -]+$/, 'A tracking number has only letters, digits, spaces and dashes.'),
  ),
  estimatedDelivery: z
    .string({ message: 'Please enter the estimated delivery date.' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter the estimated delivery date.')
    .refine(
      (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      'That is not a real date.',
    ),
});

export const cancelInput = z.object({
  requestKey,
  confirm: z.literal('yes', { message: 'Please tick the box to confirm the cancel and refund.' }),
});

/** "4.99" or "$4.99" into cents. Zero and negative amounts are refused here, with a sentence. */
export const refundInput = z.object({
  requestKey,
  amount: z
    .string({ message: 'Please enter an amount, like 4.99.' })
    .trim()
    .regex(/^\$?\d{1,7}(\.\d{1,2})?$/, 'Please enter an amount in dollars and cents, like 4.99.')
    .transform((v) => v.replace(/^\$/, ''))
    .transform(dollarsToCents('Please enter an amount in dollars and cents, like 4.99.'))
    .refine((cents) => cents > 0, 'Please enter an amount greater than $0.00.'),
  reason: text('reason', 500),
});

export const resumeInput = z.object({ refundId: recordId('Refund id') });
