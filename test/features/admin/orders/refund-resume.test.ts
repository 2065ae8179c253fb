// The once-a-minute sweep's refund resume (src/serve.ts, backgroundSweep) never fails silently:
// a refund it cannot finish is logged with its id (error while it stays pending, warn when the
// provider refused it), and a resume that cannot run at all is logged at error without keeping
// the checkout sweep from its work.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { backgroundSweep } from '../../../../src/serve.ts';
import { STALE_REFUND_MS } from '../../../../src/features/admin/orders/order-refunds.ts';
import { Unavailable } from '../../../../src/web/errors.ts';
import { PaymentError } from '../../../../src/features/payments/provider.ts';
import { buildTestShop, type TestShop } from '../../../helpers/app.ts';
import { operatorBrowser } from '../../../helpers/operator.ts';
import { placePaidOrder } from '../../../helpers/orders.ts';
import { capturedLog } from '../../../helpers/log-capture.ts';

const { log, lines } = capturedLog('info');
let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop({ log });
});
afterAll(() => shop.close());
beforeEach(() => {
  lines.length = 0;
  vi.restoreAllMocks();
});

/** A refund an operator started on a paid order, left pending since `createdAt`. */
async function staleRefund(createdAt: Date): Promise<{ refundId: number; orderId: number }> {
  const { orderId } = await placePaidOrder(shop);
  const { operator } = await operatorBrowser(shop);
  const [refundId] = await shop.db('refunds').insert({
    orderId,
    amount: '1.00',
    reason: 'Damaged book',
    status: 'pending',
    requestKey: `refund:stale-${orderId}`,
    actorId: operator.id,
    createdAt,
  });
  return { refundId: Number(refundId), orderId };
}

const sweep = () => backgroundSweep(shop.services, log);
const later = (createdAt: Date) => new Date(createdAt.getTime() + STALE_REFUND_MS + 60_000);

describe('the refund resume on the sweep', () => {
  it('logs a refund it could not finish at error, with its id, and leaves it pending for the next run', async () => {
    const createdAt = new Date();
    const { refundId, orderId } = await staleRefund(createdAt);
    vi.spyOn(shop.services.payments, 'refund').mockRejectedValue(new Unavailable('The payment provider is out of reach.'));
    await sweep().sweep(later(createdAt));
    const line = lines.find((l) => l.refundId === refundId);
    expect(line).toMatchObject({
      level: 50,
      msg: 'could not finish a refund left in progress; trying again on the next sweep',
      orderId,
      err: { message: 'The payment provider is out of reach.' },
    });
    expect((await shop.db('refunds').where({ id: refundId }).first()).status).toBe('pending');
  });

  it('logs a refund the provider refused at warn: recorded as failed', async () => {
    const createdAt = new Date();
    const { refundId } = await staleRefund(createdAt);
    vi.spyOn(shop.services.payments, 'refund').mockRejectedValue(new PaymentError('The charge was already refunded.'));
    await sweep().sweep(later(createdAt));
    const line = lines.find((l) => l.refundId === refundId);
    expect(line).toMatchObject({ level: 40, msg: 'a refund left in progress was refused; recorded as failed' });
    expect((await shop.db('refunds').where({ id: refundId }).first()).status).toBe('failed');
  });

  it('logs at error when the resume cannot run at all, and the checkout sweep still runs', async () => {
    const checkoutSweep = vi.spyOn(shop.services.checkout, 'sweep');
    await shop.db.schema.renameTable('refunds', 'refunds_away');
    try {
      await expect(sweep().sweep(new Date())).resolves.toEqual({ settled: 0 });
    } finally {
      await shop.db.schema.renameTable('refunds_away', 'refunds');
    }
    expect(checkoutSweep).toHaveBeenCalledTimes(1);
    expect(lines.find((l) => l.msg === 'could not resume refunds left in progress; retrying on the next tick')).toMatchObject({
      level: 50,
    });
  });

  it('logs a failed checkout sweep at error and still resumes refunds', async () => {
    vi.spyOn(shop.services.checkout, 'sweep').mockRejectedValue(new Error('the database went away'));
    const resume = vi.spyOn(shop.services.refunds, 'resumeStale');
    await sweep().sweep(new Date());
    expect(resume).toHaveBeenCalledTimes(1);
    expect(lines.find((l) => l.msg === 'checkout sweep failed; retrying on the next tick')).toMatchObject({ level: 50 });
  });
});
