import { Router, type Request, type Response } from 'express';
import { formatUsd } from '../../lib/money.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { cartOwner } from '../cart/cart.owner.ts';
import { cartTotalCents } from '../cart/cart.rules.ts';
import type { CartService } from '../cart/cart.service.ts';
import { displayStatus, statusLabel, statusTone } from '../orders/order-status.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { FREE_SHIPPING_THRESHOLD_CENTS } from '../pricing/constants.ts';
import { orderId } from '../orders/orders.schemas.ts';
import { signInPathFor } from '../../web/return-path.ts';
import { GIFT_NOTE_MAX, GIFT_RECIPIENT_MAX } from './gift-note.ts';

// GET /checkout, /simple-checkout   the guest checkout (creates an account as it pays)
// GET /authcheckout                 the signed-in checkout
// GET /order-confirmation           ?orderId=&paymentIntentId= (signed out: to sign-in and back)
export function checkoutPages(deps: {
  carts: CartService;
  accounts: AccountsService;
  orders: OrdersService;
  payments: PaymentProvider;
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
    const order = id.success && userId ? await deps.orders.findOrder({ id: id.data, userId }).catch(() => undefined) : undefined;
    if (!order) return res.status(404).render('checkout/confirmation', { title: 'Order Not Found', order: null });
    const providerStatus = order.stripePaymentIntentId
      ? await deps.payments.retrievePaymentIntent(order.stripePaymentIntentId).then(
          (i) => i.status as string,
          () => 'stripe_error',
        )
      : 'no_payment_intent';
    const status = displayStatus(order.status, providerStatus);
    res.render('checkout/confirmation', {
      title: 'Order Confirmed!',
      order,
      status: { label: statusLabel(status), tone: statusTone(status) },
    });
  });

  async function renderCheckout(req: Request, res: Response, variant: 'guest' | 'account') {
    const items = await deps.carts.getItems(cartOwner(req));
    if (!items.length) return res.render('checkout/empty', { title: 'Complete Your Order' });
    const account = variant === 'account' ? await deps.accounts.getUser(req.session.userId!) : undefined;
    const saved = variant === 'account' ? await deps.accounts.savedAddress(req.session.userId!) : null;
    res.render('checkout/show', {
      title: 'Complete Your Order',
      variant,
      saved,
      giftNoteMax: GIFT_NOTE_MAX,
      giftRecipientMax: GIFT_RECIPIENT_MAX,
      items,
      subtotal: formatUsd(cartTotalCents(items)),
      formatUsd,
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
