import { z } from 'zod';

// Checkout ships to this address and an account keeps it for next time. It lives with
// accounts, the lower of the two features (checkout builds on accounts), so both read one shape.

const field = (what: string, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    z.string().trim().min(1, `${what} is required`).max(max, `${what} is too long`),
  );

/** Address, city and ZIP code. */
export const shippingInfo = z.object({
  address: field('Address', 255),
  city: field('City', 100),
  zipCode: field('ZIP code', 10).pipe(z.string().regex(/^\d{5}$/, 'ZIP code must be 5 digits')),
});

export type ShippingInfo = z.infer<typeof shippingInfo>;
