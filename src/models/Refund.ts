import { BaseModel } from './BaseModel.ts';

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** Money given back on an order, reserved before the provider is asked. */
export class Refund extends BaseModel {
  static override tableName = 'refunds';

  id!: number;
  orderId!: number;
  amount!: string | number;
  reason!: string;
  status!: RefundStatus;
  /** The form's one-time key: a retried or double-clicked request finds this row instead of refunding again. */
  requestKey!: string;
  providerRefundId!: string | null;
  error!: string | null;
  actorId!: number | null;
  createdAt!: Date | string;
  settledAt!: Date | string | null;
}
