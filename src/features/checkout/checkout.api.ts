import { Router } from 'express';
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import { clientAddress, requireUser } from '../../web/auth.ts';
import { bodyFields, parse } from '../../web/validate.ts';
import { ACCOUNT_MESSAGES } from '../accounts/accounts.messages.ts';
import { signupInput } from '../accounts/accounts.schemas.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { startUserSession } from '../accounts/sign-in.ts';
import type { CartService } from '../cart/cart.service.ts';
import { cartOwner } from '../cart/cart.owner.ts';
import { decimalTotals } from '../pricing/pricing.ts';
import { validateAddress } from './address.ts';
import { shippingInfo } from '../accounts/shipping-info.ts';
import { addressRequest, completeOrderInput, intentAuthenticated, intentWithCustomer } from './checkout.schemas.ts';
import { CHECKOUT_MESSAGES, type CheckoutService } from './checkout.service.ts';
import { admission } from '../../web/admission.ts';
import { csrfToken } from '../../web/csrf.ts';
import { Conflict } from '../../web/errors.ts';
import { sessionDiscountCode } from '../discounts/discount-session.ts';

// POST /api/calculate-totals                      {address, city, zipCode} -> shipping, handling, tax, total
// POST /api/validate-address                      {address, city, zipCode} -> isValid, confidence, suggestions
// POST /api/create-user-and-customer              {email, password, firstName, lastName, shippingInfo}
// POST /api/create-payment-intent-with-customer   {stripeCustomerId, totalAmount, shippingInfo, giftNote?, giftRecipient?}
// POST /api/create-payment-intent-authenticated   {amount, shippingInfo, giftNote?, giftRecipient?}
// POST /api/complete-order                        {stripePaymentIntentId, shippingInfo}
// Amounts and user ids sent by the browser are never used: the server prices the session's cart.
type PaymentRequest = Pick<z.infer<typeof intentAuthenticated>, 'shippingInfo' | 'giftNote' | 'giftRecipient'>;

/**
 * Payment starts (an account made at checkout, a payment intent) one process works on at once,
 * and how long one waits for its turn before the parent is asked to try again in a moment
 * (src/web/admission.ts). A start costs the server a hundred times what a kept page does
 * (bench/results.md), so a crowd paying at once must not take the event loop from the pages.
 */
export const PAYMENT_STARTS = { atOnce: 4, maxWaitMs: 10_000 };

export function checkoutApi(checkout: CheckoutService, accounts: AccountsService, carts: CartService): Router {
  const router = Router();
  const paymentStart = admission({ ...PAYMENT_STARTS, message: CHECKOUT_MESSAGES.busy }).handler;

  router.post('/calculate-totals', async (req, res) => {
    const totals = await checkout.calculateTotals(cartOwner(req), parse(addressRequest, req.body), sessionDiscountCode(req));
    res.json(decimalTotals(totals));
  });

  router.post('/validate-address', (req, res) => {
    res.json(validateAddress(parse(addressRequest, req.body)));
  });

  router.post('/create-user-and-customer', paymentStart, async (req, res) => {
    const account = parse(signupInput, req.body);
    parse(shippingInfo, bodyFields(req.body).shippingInfo);
    if (req.session.userId) throw new Conflict('You are already signed in. Please use the signed-in checkout.');
    const { user, sessionVersion } = await accounts.signup(account, clientAddress(req));
    await startUserSession(req, { userId: user.id, sessionVersion }, carts);
    const stripeCustomerId = await checkout.customerFor(user.id);
    res.status(201).json({ user, stripeCustomerId, csrfToken: csrfToken(req), message: ACCOUNT_MESSAGES.accountCreated.title });
  });

  // Two names for one step (the guest's card form and the signed-in one); they differ only in
  // what they call the total the page showed.
  const startPayment = (req: Request, input: PaymentRequest, claimedTotalCents: number | undefined) =>
    checkout.startPayment({
      userId: req.session.userId!,
      shipping: input.shippingInfo,
      giftNote: input.giftNote,
      giftRecipient: input.giftRecipient,
      claimedTotalCents,
      clientKey: clientKey(req),
      discountCode: sessionDiscountCode(req),
    });

  router.post('/create-payment-intent-with-customer', requireUser, paymentStart, async (req, res) => {
    const input = parse(intentWithCustomer, req.body);
    res.json(await startPayment(req, input, input.totalAmount));
  });

  router.post('/create-payment-intent-authenticated', requireUser, paymentStart, async (req, res) => {
    const input = parse(intentAuthenticated, req.body);
    res.json(await startPayment(req, input, input.amount));
  });

  router.post('/complete-order', requireUser, async (req, res) => {
    const { stripePaymentIntentId } = parse(completeOrderInput, req.body);
    const order = await checkout.completeOrder({ paymentIntentId: stripePaymentIntentId, userId: req.session.userId! });
    res.json({ order });
  });

  return router;
}

/** Where a checkout came from, kept only as a hash: enough to count, nothing to read. */
function clientKey(req: Request): string {
  return createHash('sha256').update(clientAddress(req)).digest('hex').slice(0, 32);
}
