import { z } from 'zod';
import { dollarsToCents } from '../../lib/schema-fields.ts';
import { shippingInfo } from '../accounts/shipping-info.ts';
import { GIFT_NOTE_MAX, GIFT_NOTE_MESSAGES, GIFT_RECIPIENT_MAX, visibleLength } from './gift-note.ts';

export { GIFT_NOTE_MESSAGES };

/** POST /api/calculate-totals and /api/validate-address. A userId sent along is ignored. */
export const addressRequest = shippingInfo;

/**
 * An optional gift note, trimmed; blank becomes null. The raw length is bounded first, so
 * no body is ever segmented past what 200 long characters could be.
 */
export const giftNote = z
  .string({ message: GIFT_NOTE_MESSAGES.notText })
  .max(GIFT_NOTE_MAX * 20, GIFT_NOTE_MESSAGES.tooLong)
  .trim()
  .refine((note) => visibleLength(note) <= GIFT_NOTE_MAX, GIFT_NOTE_MESSAGES.tooLong)
  .nullish()
  .transform((note) => note || null);

/** Who an optional gift is for, trimmed; blank becomes null. */
export const giftRecipient = z
  .string({ message: GIFT_NOTE_MESSAGES.notText })
  .trim()
  .refine((name) => visibleLength(name) <= GIFT_RECIPIENT_MAX && name.length <= GIFT_RECIPIENT_MAX * 4, GIFT_NOTE_MESSAGES.recipientTooLong)
  .nullish()
  .transform((name) => name || null);

const DOLLARS_MESSAGE = 'totalAmount must be an amount like 28.58';
const dollars = z
  .union([z.number(), z.string().regex(/^\d+(\.\d{1,2})?$/)], { message: DOLLARS_MESSAGE })
  .transform(dollarsToCents(DOLLARS_MESSAGE));

export const intentWithCustomer = z.object({
  stripeCustomerId: z.string().max(255).optional(),
  totalAmount: dollars.optional(),
  shippingInfo,
  giftNote,
  giftRecipient,
});

export const intentAuthenticated = z.object({
  /** The amount the page showed, in cents (the widget's unit). */
  amount: z
    .number({ message: 'amount must be a whole number of cents' })
    .int('amount must be a whole number of cents')
    .nonnegative()
    .optional(),
  shippingInfo,
  giftNote,
  giftRecipient,
});

export const completeOrderInput = z.object({
  stripePaymentIntentId: z.string({ message: 'stripePaymentIntentId is required' }).min(1, 'stripePaymentIntentId is required').max(255),
});
