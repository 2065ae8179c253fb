import { z } from 'zod';
import { GIFT_NOTE_MAX, GIFT_NOTE_MESSAGES, GIFT_RECIPIENT_MAX, visibleLength } from './gift-note.ts';

export { GIFT_NOTE_MESSAGES };

const field = (what: string, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string().trim().min(1, `${what} is required`).max(max, `${what} is too long`),
  );

/** Address, city and ZIP code (spec section 3, "Shipping info"). */
export const shippingInfo = z.object({
  address: field('Address', 255),
  city: field('City', 100),
  zipCode: field('ZIP code', 10).pipe(z.string().regex(/^\d{5}$/, 'ZIP code must be 5 digits')),
});

export type ShippingInfo = z.infer<typeof shippingInfo>;

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

const dollars = z
  .union([z.number(), z.string().regex(/^\d+(\.\d{1,2})?$/)], { message: 'totalAmount must be an amount like 28.58' })
  .transform((v) => Math.round(Number(v) * 100));

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

/** A payment intent id as the provider writes it: Stripe's pi_3Mtw..., the sandbox's pi_sbx_.... */
export const paymentIntentId = z
  .string()
  .max(255, 'Payment intent id is too long')
  .regex(/^pi_[A-Za-z0-9_]*[A-Za-z0-9]$/, 'Payment intent id must look like pi_ followed by letters and digits');
