import { Router, type Request, type Response } from 'express';
import { formatUsd } from '../../lib/money.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { cartOwner } from '../cart/cart.owner.ts';
import { cartTotalCents, shipsTogetherNote } from '../cart/cart.rules.ts';
import { preorderLineLabel } from '../catalog/preorder.rules.ts';
import type { CartService } from '../cart/cart.service.ts';
import { displayStatus, statusBadge } from '../orders/order-status.ts';
import { dtoMoney } from '../orders/order.dto.ts';
import { orderStory } from '../orders/order-story.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { FREE_SHIPPING_THRESHOLD_CENTS } from '../pricing/constants.ts';
import { orderId } from '../orders/orders.schemas.ts';
import { signInPathFor } from '../../web/return-path.ts';
import { isClientError } from '../../web/errors.ts';
import { bodyFields } from '../../web/validate.ts';
import { NO_PROBLEMS, refusal, type Refusal } from '../../web/form-problems.ts';
import type { AppliedCode } from '../discounts/discount-uses.ts';
import { DISCOUNT_MESSAGES } from '../discounts/discount.rules.ts';
import { enteredCode } from '../discounts/discounts.schemas.ts';
import { discountCents } from '../pricing/discount.ts';
import { GIFT_NOTE_MAX, GIFT_RECIPIENT_MAX } from './gift-note.ts';
import { requestLogger } from '../../web/request-log.ts';
import { RETRY_AFTER_SECONDS } from '../../web/unavailable.ts';

/** The confirmation page when the order could not be read: never 'Order Not Found', which would alarm a parent who just paid. */
export const CONFIRMATION_UNAVAILABLE = {
  title: 'We Could Not Load Your Order',
  text: 'We could not load your order just now. If you have paid, your order is safe: please try again in a moment.',
  retry: 'Try again',
};

// GET /checkout, /simple-checkout   the guest checkout (creates an account as it pays)
// GET /authcheckout                 the signed-in checkout
// GET /order-confirmation           ?orderId=&paymentIntentId= (signed out: to sign-in and back)
// POST /checkout/discount           apply a code: back to the checkout, or the checkout again (400) with the reason
// POST /checkout/discount/remove    take it off
export function checkoutPages(deps: {
  carts: CartService;
  accounts: AccountsService;
  orders: OrdersService;
  payments: PaymentProvider;
  /** Checks a code against a subtotal; throws a 4xx with the reason it cannot be used. */
  checkCode: (code: string, subtotal: number) => Promise<AppliedCode>;
}): Router {
  const router = Router();

  const guest = async (req: Request, res: Response) => {
    if (req.session.userId) return res.redirect(303, '/authcheckout');
    await renderCheckout(req, res, 'guest');
  };
  router.get('/checkout', guest);
  router.get('/simple-checkout', guest);

  router.get('/authcheckout', async (req, res) => {
    if (!req.session.userId) return res.redirect(303, '/simple-checkout');
    await renderCheckout(req, res, 'account');
  });

  router.get('/order-confirmation', async (req, res) => {
    const id = orderId.safeParse(req.query.orderId);
    const userId = req.session.userId;
    // The confirmation email links here: a parent who is signed out signs in and comes back.
    if (id.success && !userId) return res.redirect(303, signInPathFor(`/order-confirmation?orderId=${id.data}`));
    let order: Awaited<ReturnType<OrdersService['findOrder']>> | undefined;
    try {
      order = id.success && userId ? await deps.orders.findOrder({ id: id.data, userId }) : undefined;
    } catch (err) {
      // Unknown, or someone else's: 'Order Not Found' below. Anything else is not an unknown
      // order: the parent may just have paid, so the page says it could not be read, and to retry.
      if (!isClientError(err)) {
        requestLogger(req).error({ err }, 'could not read the order for its confirmation page');
        return res.status(503).set('Retry-After', String(RETRY_AFTER_SECONDS)).render('checkout/confirmation', {
          title: CONFIRMATION_UNAVAILABLE.title,
          order: null,
          unavailable: CONFIRMATION_UNAVAILABLE,
          retryUrl: req.originalUrl,
        });
      }
    }
    if (!order) return res.status(404).render('checkout/confirmation', { title: 'Order Not Found', order: null });
    const providerStatus = order.stripePaymentIntentId
      ? await deps.payments.retrievePaymentIntent(order.stripePaymentIntentId).then(
          (i) => i.status as string,
          (err: unknown) => {
            // Shown as the provider's status being unknown (displayStatus), and logged.
            requestLogger(req).error({ err, orderId: order.id }, 'could not ask the payment provider for an order’s status');
            return 'stripe_error';
          },
        )
      : 'no_payment_intent';
    const status = displayStatus(order.status, providerStatus);
    const story = orderStory({ ...order, status });
    res.render('checkout/confirmation', {
      title: story.heading,
      order,
      story,
      status: statusBadge(status, dtoMoney(order)),
    });
  });

  router.post('/checkout/discount', async (req, res) => {
    const parsed = enteredCode.safeParse(req.body ?? {});
    const typed = bodyFields(req.body).code;
    const entered = typeof typed === 'string' ? typed : '';
    if (!parsed.success) return renderCheckout(req, res.status(400), variantOf(req), { entered, error: parsed.error.issues[0]!.message });
    const items = await deps.carts.getItems(cartOwner(req));
    const refusal = await deps.checkCode(parsed.data.code, cartTotalCents(items)).then(
      () => undefined,
      (err: unknown) => {
        if (!isClientError(err)) throw err;
        return err.message;
      },
    );
    if (refusal) return renderCheckout(req, res.status(400), variantOf(req), { entered, error: refusal });
    req.session.discountCode = parsed.data.code;
    req.session.flash = { title: 'Discount applied', text: DISCOUNT_MESSAGES.applied(parsed.data.code), variant: 'success' };
    res.redirect(303, checkoutPath(req));
  });

  router.post('/checkout/discount/remove', (req, res) => {
    delete req.session.discountCode;
    req.session.flash = { title: 'Discount removed', text: DISCOUNT_MESSAGES.removed, variant: 'success' };
    res.redirect(303, checkoutPath(req));
  });

  const variantOf = (req: Request) => (req.session.userId ? 'account' : 'guest');
  const checkoutPath = (req: Request) => (req.session.userId ? '/authcheckout' : '/checkout');

  /** The applied code, checked again on this cart; one no longer valid is dropped and its reason shown. */
  async function appliedCode(req: Request, subtotal: number): Promise<{ code?: AppliedCode; error?: string }> {
    const code = req.session.discountCode;
    if (!code) return {};
    try {
      return { code: await deps.checkCode(code, subtotal) };
    } catch (err) {
      if (!isClientError(err)) throw err;
      delete req.session.discountCode;
      return { error: err.message };
    }
  }

  async function renderCheckout(
    req: Request,
    res: Response,
    variant: 'guest' | 'account',
    form: { entered?: string; error?: string } = {},
  ) {
    const items = await deps.carts.getItems(cartOwner(req));
    if (!items.length) return res.render('checkout/empty', { title: 'Complete Your Order' });
    const subtotal = cartTotalCents(items);
    const applied = await appliedCode(req, subtotal);
    const discount = applied.code ? discountCents(subtotal, applied.code.offer) : 0;
    const account = variant === 'account' ? await deps.accounts.getUser(req.session.userId!) : undefined;
    const saved = variant === 'account' ? await deps.accounts.savedAddress(req.session.userId!) : null;
    res.render('checkout/show', {
      title: 'Complete Your Order',
      variant,
      saved,
      giftNoteMax: GIFT_NOTE_MAX,
      giftRecipientMax: GIFT_RECIPIENT_MAX,
      items,
      subtotal: formatUsd(subtotal),
      formatUsd,
      preorderLineLabel,
      // Said before payment, on the summary and above the card: a pre-order ships with everything else once the last book is out.
      shipsTogether: shipsTogetherNote(items),
      discount: applied.code
        ? { code: applied.code.code, amount: formatUsd(discount), freeShipping: applied.code.offer.kind === 'free_shipping' }
        : null,
      discountEntered: form.entered ?? '',
      discountProblems: discountRefusal(form.error ?? applied.error),
      freeShipping: formatUsd(FREE_SHIPPING_THRESHOLD_CENTS),
      cardProps: {
        variant,
        mode: deps.payments.name,
        publishableKey: deps.payments.publishableKey,
        customer: account ? { name: `${account.firstName} ${account.lastName}`.trim(), email: account.email } : null,
      },
    });
  }

  return router;
}

/** A refused or dropped code, told as every form tells a refusal: a summary and the message beside the field. */
function discountRefusal(message: string | undefined): Refusal {
  if (!message) return NO_PROBLEMS;
  return refusal({
    form: 'discount',
    title: 'Discount code not applied',
    problems: [{ field: 'code', message }],
    ids: { code: 'co-discount' },
  });
}
