import type { Knex } from 'knex';
import type { Checkout } from '../../models/Checkout.ts';
import { DiscountCode } from '../../models/DiscountCode.ts';
import { BadRequest } from '../../web/errors.ts';
import type { DiscountOffer } from '../pricing/discount.ts';
import { DISCOUNT_MESSAGES, normaliseCode, refusal, utcToday } from './discount.rules.ts';

// A code's uses, counted the way stock holds count copies: a payment that starts reserves a use
// (held + 1) with one conditional UPDATE, so parallel checkouts can never reserve more than the
// maximum on any database; the order turns it into a use (uses + 1), and a payment that fails
// or expires gives it back. Each change happens under the checkout row's lock, once.

type Trx = Knex | Knex.Transaction;

export interface AppliedCode {
  id: number;
  code: string;
  offer: DiscountOffer;
}

/** The code a parent entered, checked for this subtotal today; a refusal is a 400 with its reason. */
export async function applicableCode(db: Trx, entered: string, subtotal: number, now = new Date()): Promise<AppliedCode> {
  const code = await DiscountCode.query(db).findOne({ code: normaliseCode(entered) });
  if (!code) throw new BadRequest(DISCOUNT_MESSAGES.unknown);
  const reason = refusal(code, subtotal, utcToday(now));
  if (reason) throw new BadRequest(reason);
  return { id: code.id, code: code.code, offer: { kind: code.kind, percent: code.percent, amount: code.amount } };
}

/** Reserves one use for a payment starting now; false when none is left (or the code was switched off). */
export async function reserveUse(trx: Trx, codeId: number): Promise<boolean> {
  const changed = await trx('discountCodes')
    .where({ id: codeId, active: true })
    .andWhere((q) => q.whereNull('maxUses').orWhereRaw('uses + held < max_uses'))
    .increment('held', 1);
  return changed === 1;
}

/** Gives back the use a checkout reserved, if it still holds one. Call under the checkout's lock. */
export async function releaseUse(trx: Trx, checkout: Checkout): Promise<void> {
  if (!checkout.discountCode || !(await dropReservation(trx, checkout))) return;
  await trx('discountCodes').where({ code: checkout.discountCode }).andWhere('held', '>', 0).decrement('held', 1);
}

/** Clears the checkout's reservation as the row stands now, not as the caller last read it: a use is given back once. */
async function dropReservation(trx: Trx, checkout: Checkout): Promise<boolean> {
  return (await trx('checkouts').where({ id: checkout.id, discountHeld: true }).update({ discountHeld: false })) === 1;
}

/**
 * The order is made: the reserved use becomes a use. A checkout whose reservation was given
 * back (it expired, then the payment went through after all) still counts its use: the parent
 * paid the discounted price.
 */
export async function confirmUse(trx: Trx, checkout: Checkout): Promise<void> {
  if (!checkout.discountCode) return;
  const codes = trx('discountCodes').where({ code: checkout.discountCode });
  if (await dropReservation(trx, checkout)) await codes.clone().andWhere('held', '>', 0).decrement('held', 1);
  await codes.clone().increment('uses', 1);
}
