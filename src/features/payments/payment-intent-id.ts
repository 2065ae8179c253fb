import { z } from 'zod';

/** A payment intent id as the provider writes it: Stripe's pi_3Mtw..., the sandbox's pi_sbx_.... */
export const paymentIntentId = z
  .string()
  .max(255, 'Payment intent id is too long')
  .regex(/^pi_[A-Za-z0-9_]*[A-Za-z0-9]$/, 'Payment intent id must look like pi_ followed by letters and digits');
