import { randomBytes } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { formatUsd, toCents } from '../../lib/money.ts';
import { isClientError, Unavailable } from '../../web/errors.ts';
import { withFormErrors } from '../../web/form-errors.ts';
import { errorProblems, refusal, zodProblems, zodRefusal, type FieldProblem, type Refusal } from '../../web/form-problems.ts';
import { keepRefusal } from '../../web/kept-refusal.ts';
import { hasSession } from '../../web/session-presence.ts';
import { displayStatus, statusTone } from '../orders/order-status.ts';
import { orderStory } from '../orders/order-story.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import { ACCOUNT_MESSAGES as M, MIN_PASSWORD_LENGTH } from './accounts.messages.ts';
import { passwordChangeInput, profileInput } from './accounts.schemas.ts';
import type { AccountsService } from './accounts.service.ts';
import { bodyFields, fieldErrors, parse } from '../../web/validate.ts';
import { shippingInfo } from './shipping-info.ts';
import type { CartService } from '../cart/cart.service.ts';
import { shortfallMessage } from '../cart/cart.rules.ts';
import { orderId, preorderCancelInput } from '../orders/orders.schemas.ts';
import { PREORDER_CANCEL_MESSAGES, type PreorderCancel } from '../orders/preorder-cancel.ts';

const TABS = ['profile', 'orders', 'settings'] as const;
type Tab = (typeof TABS)[number];

// GET  /dashboard?tab=profile|orders|settings[&edit=1]
// POST /dashboard/profile    save first and last name
// POST /dashboard/password   change the password (with a code, for an account with a second factor)
// POST /dashboard/address    save the shipping address the checkout offers
// POST /dashboard/orders/:id/buy-again   an order's books back into the cart, then the cart
// POST /dashboard/orders/:id/cancel      cancel a pre-order and refund it in full, at once
export function dashboardPages(accounts: AccountsService, orders: OrdersService, carts: CartService, preorders: PreorderCancel): Router {
  const router = Router();
  router.use('/dashboard', signedInOnly);

  router.get('/dashboard', async (req, res) => {
    const tab = TABS.includes(req.query.tab as Tab) ? (req.query.tab as Tab) : 'profile';
    await renderDashboard(res, tab, { editing: req.query.edit === '1' });
  });

  router.post('/dashboard/profile', async (req, res) => {
    const input = profileInput.safeParse(req.body);
    if (!input.success) {
      return renderDashboard(res.status(400), 'profile', {
        editing: true,
        values: bodyFields(req.body),
        problems: zodRefusal({ form: 'profile', title: M.updateFailed.title, error: input.error, ids: PROFILE_IDS }),
      });
    }
    await accounts.updateProfile(req.session.userId!, input.data);
    req.session.flash = { ...M.profileUpdated, variant: 'success' };
    res.redirect(303, '/dashboard?tab=profile');
  });

  router.post('/dashboard/password', async (req, res) => {
    const input = passwordChangeInput.safeParse({ ...bodyFields(req.body), currentPassword: bodyFields(req.body).currentPassword ?? '' });
    const failed = (status: number, problems: Refusal) =>
      renderDashboard(res.status(status), 'settings', { changingPassword: true, problems });
    if (!input.success)
      return failed(400, zodRefusal({ form: 'password', title: M.passwordChangeFailed.title, error: input.error, ids: PASSWORD_IDS }));
    const change = input.data;
    await withFormErrors(
      async () => {
        req.session.sessionVersion = await accounts.changePassword(req.session.userId!, change);
        req.session.flash = { ...M.passwordChanged, variant: 'success' };
        res.redirect(303, '/dashboard?tab=settings');
      },
      (err) =>
        failed(
          err.status,
          refusal({ form: 'password', title: M.passwordChangeFailed.title, problems: errorProblems(err), ids: PASSWORD_IDS }),
        ),
    );
  });

  router.post('/dashboard/address', async (req, res) => {
    const input = shippingInfo.safeParse(req.body);
    if (!input.success) {
      return renderDashboard(res.status(400), 'profile', {
        addressValues: bodyFields(req.body),
        addressErrors: fieldErrors(input.error),
        problems: refusal({ form: 'address', title: M.addressFailed.title, problems: zodProblems(input.error), ids: ADDRESS_IDS }),
      });
    }
    await accounts.saveAddress(req.session.userId!, input.data);
    req.session.flash = { ...M.addressSaved, variant: 'success' };
    res.redirect(303, '/dashboard?tab=profile');
  });

  router.post('/dashboard/orders/:id/buy-again', async (req, res) => {
    const userId = req.session.userId!;
    const order = await orders.findOrder({ id: parse(orderId, req.params.id), userId });
    const lines = order.items.map((item) => ({ bookId: item.bookId, title: item.book.title, quantity: item.quantity }));
    const { shortfalls } = await carts.addAgain({ userId }, lines);
    if (shortfalls.length) {
      // What could not come back is listed at the top of the cart, above the lines it concerns.
      keepRefusal(req, {
        form: 'cart-buy-again',
        title: 'Some books could not be added',
        problems: shortfalls.map((shortfall) => ({ message: shortfallMessage(shortfall) })),
        ids: {},
        values: {},
      });
    } else {
      req.session.flash = { title: 'Added to cart', text: `The books from order #${order.id} are in your cart.`, variant: 'success' };
    }
    res.redirect(303, '/cart');
  });

  router.post('/dashboard/orders/:id/cancel', async (req, res) => {
    const id = parse(orderId, req.params.id);
    // Told inside that order's cancel form, which stays open, whatever the order now is.
    const refused = (status: number, problems: FieldProblem[]) =>
      renderDashboard(res.status(status), 'orders', {
        problems: refusal({ form: cancelForm(id), title: PREORDER_CANCEL_MESSAGES.refused, problems, ids: {} }),
      });
    const input = preorderCancelInput.safeParse(req.body);
    if (!input.success) return refused(400, zodProblems(input.error));
    try {
      await preorders.cancelOwn(id, req.session.userId!, input.data.requestKey);
    } catch (err) {
      // Someone else's order stays not found; a refusal, or a provider out of reach, changed nothing.
      const besideButton = (isClientError(err) && err.status !== 404) || err instanceof Unavailable;
      if (!besideButton) throw err;
      return refused(err.status, errorProblems(err));
    }
    req.session.flash = { ...PREORDER_CANCEL_MESSAGES.done(id), variant: 'success' };
    res.redirect(303, '/dashboard?tab=orders');
  });

  async function renderDashboard(res: Parameters<RequestHandler>[1], tab: Tab, extra: Record<string, unknown>): Promise<void> {
    const userId = res.req.session.userId!;
    const [user, orderList, saved] = await Promise.all([
      accounts.getUser(userId),
      orders.listOrders(userId),
      accounts.savedAddress(userId),
    ]);
    res.render('dashboard/show', {
      title: 'My Dashboard',
      tab,
      profile: user,
      orders: orderList.map((order) => {
        const status = displayStatus(order.status);
        return {
          ...order,
          displayStatus: status,
          statusTone: statusTone(status),
          story: orderStory({ ...order, status }),
          // A pre-order's cancel form: its one-time key (a double click refunds once) and what it gives back.
          cancel:
            status === 'preordered'
              ? {
                  form: cancelForm(order.id),
                  requestKey: randomBytes(16).toString('hex'),
                  refund: formatUsd(toCents(order.totalAmount) - toCents(order.refundedAmount)),
                }
              : { form: cancelForm(order.id), requestKey: null, refund: null },
        };
      }),
      minLength: MIN_PASSWORD_LENGTH,
      values: {},
      addressValues: saved ?? {},
      addressErrors: {},
      ...extra,
    });
  }

  return router;
}

// Each form's fields and their inputs' ids, in the order the form shows them.
const PROFILE_IDS = { firstName: 'profile-first', lastName: 'profile-last' };
const PASSWORD_IDS = {
  currentPassword: 'current-password',
  newPassword: 'settings-new-password',
  confirmPassword: 'settings-confirm-password',
  code: 'settings-code',
};
const ADDRESS_IDS = { address: 'saved-address', city: 'saved-city', zipCode: 'saved-zipCode' };
/** Each pre-order's cancel form has its own name, so a refusal is told in that order's form alone. */
const cancelForm = (id: number) => `cancel-${id}`;

/** Where a visitor without a session is sent from a signed-in page: the query says 'Access Denied'. */
export const ACCESS_DENIED_URL = '/login?denied=1';

/**
 * Visitors are sent to /login with 'Access Denied' (docs/architecture.md, "Sign-in, sessions and
 * lockout"), told at the top of the sign-in form, the one thing that lets them in. A visitor
 * without a session gets no session for it (a read stores none): the redirect says it instead.
 */
export const signedInOnly: RequestHandler = (req, res, next) => {
  if (req.session.userId) return next();
  if (!hasSession(req)) return res.redirect(303, ACCESS_DENIED_URL);
  keepRefusal(req, { form: 'signin', title: M.accessDenied.title, problems: [{ message: M.accessDenied.text }], ids: {}, values: {} });
  res.redirect(303, '/login');
};
