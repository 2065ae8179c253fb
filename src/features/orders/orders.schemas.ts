import { z } from 'zod';
import { recordId } from '../../lib/schema-fields.ts';

/** An order's id in a URL or query (the confirmation page, the API, /admin). */
export const orderId = recordId('Order id');

/** A money form's one-time key (random per render): a resubmission of the same form carries the same one. */
export const requestKey = z
  .string({ message: 'This form has expired. Please reload the page and try again.' })
  .regex(/^[A-Za-z0-9_-]{16,64}$/, 'This form has expired. Please reload the page and try again.');

/** The parent's "Cancel pre-order" form on the dashboard. */
export const preorderCancelInput = z.object({ requestKey });

/** The cancel-and-refund link's page: the signed token from the email, and on its button the form's key. */
export const cancelLinkQuery = z.object({ token: z.string().min(1).max(200) });
export const cancelLinkInput = z.object({ token: z.string().min(1).max(200), requestKey });
