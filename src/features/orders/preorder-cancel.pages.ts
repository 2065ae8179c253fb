import { randomBytes } from 'node:crypto';
import { Router, type Response } from 'express';
import { formatUsd, toCents } from '../../lib/money.ts';
import { BadRequest, isClientError, Unavailable } from '../../web/errors.ts';
import { errorProblems, refusal, zodProblems, type FieldProblem } from '../../web/form-problems.ts';
import { bodyFields } from '../../web/validate.ts';
import { displayStatus, statusBadge } from './order-status.ts';
import { dtoMoney } from './order.dto.ts';
import { orderStory } from './order-story.ts';
import { cancelLinkInput, cancelLinkQuery } from './orders.schemas.ts';
import { CANCEL_LINK_PATH, PREORDER_CANCEL_MESSAGES as M, type PreorderCancel } from './preorder-cancel.ts';

// GET  /preorders/cancel?token=...   the link in a pre-order's date-move email: the order and one
//                                    "Cancel and refund" button. Needs no sign-in, and opening it
//                                    changes nothing (mail scanners open links).
// POST /preorders/cancel             the button: token and the form's one-time key; then the same
//                                    page again, telling the canceled order's story.
export function preorderCancelPages(preorders: PreorderCancel): Router {
  const router = Router();

  router.get(CANCEL_LINK_PATH, async (req, res) => {
    const query = cancelLinkQuery.safeParse(req.query);
    if (!query.success) throw new BadRequest(M.badLink);
    await renderLink(res, query.data.token);
  });

  router.post(CANCEL_LINK_PATH, async (req, res) => {
    const input = cancelLinkInput.safeParse(req.body);
    const token = bodyFields(req.body).token;
    if (!input.success) {
      // A token that was never sent or was cut short is a bad link, whatever else is wrong.
      const link = cancelLinkQuery.safeParse({ token });
      if (!link.success) throw new BadRequest(M.badLink);
      return renderLink(res.status(400), link.data.token, zodProblems(input.error));
    }
    let orderId: number;
    try {
      ({ orderId } = await preorders.cancelByLink(input.data.token, input.data.requestKey));
    } catch (err) {
      // A forged link (400) and an order that is not there (404) are pages of their own; a
      // refusal or a provider out of reach is told beside the button, nothing changed.
      const besideButton = (isClientError(err) && err.status !== 400 && err.status !== 404) || err instanceof Unavailable;
      if (!besideButton) throw err;
      return renderLink(res.status(err.status), input.data.token, errorProblems(err));
    }
    req.session.flash = { ...M.done(orderId), variant: 'success' };
    res.redirect(303, `${CANCEL_LINK_PATH}?token=${encodeURIComponent(input.data.token)}`);
  });

  async function renderLink(res: Response, token: string, problems?: FieldProblem[]): Promise<void> {
    const { order, refusal: refused } = await preorders.viewLink(token);
    const status = displayStatus(order.status);
    const story = orderStory({ ...order, status });
    res.render('preorders/cancel', {
      title: `Order #${order.id}`,
      order,
      story,
      status: statusBadge(status, dtoMoney(order)),
      // Told where the button was: a refused cancel, or why this order can no longer be canceled
      // here (a canceled order's own story says so already).
      problems: refusal({
        form: 'cancel-link',
        title: M.refused,
        problems: problems ?? (refused && order.status !== 'canceled' ? [{ message: refused }] : []),
        ids: {},
      }),
      cancelable: refused === null,
      refundAmount: formatUsd(toCents(order.totalAmount) - toCents(order.refundedAmount)),
      token,
      // One key per render: a double click sends it twice and refunds once.
      requestKey: randomBytes(16).toString('hex'),
    });
  }

  return router;
}
