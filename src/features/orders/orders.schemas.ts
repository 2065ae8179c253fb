import { recordId } from '../../lib/schema-fields.ts';

/** An order's id in a URL or query (the confirmation page, the API, /admin). */
export const orderId = recordId('Order id');
