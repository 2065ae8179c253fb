import type { Request } from 'express';

// The code a parent applied at checkout is kept in the session (a name, like the cart's id),
// so the page's form, the totals the card form asks for and the payment all use the same one
// without the browser sending it, or any amount, again.

declare module 'express-session' {
  interface SessionData {
    /** Upper case, as entered at checkout; checked again on every quote. */
    discountCode: string;
  }
}

export const sessionDiscountCode = (req: Request): string | undefined => req.session.discountCode;
