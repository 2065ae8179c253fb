import type { Cents } from '../lib/money.ts';
import { BaseModel } from './BaseModel.ts';

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** Money given back on an order, reserved before the provider is asked. */
export class Refund extends BaseModel {
  static override tableName = 'refunds';
  static override moneyColumns = ['amount'];
  static override dateColumns = ['createdAt', 'settledAt'];

  id!: number;
  orderId!: number;
  amount!: Cents;
  reason!: string;
  status!: RefundStatus;
  /** The form's one-time key: a retried or double-clicked request finds this row instead of refunding again. */
  requestKey!: string;
  providerRefundId!: string | null;
  error!: string | null;
  actorId!: number | null;
  createdAt!: Date;
  settledAt!: Date | null;
}
