import type { Cents } from '../lib/money.ts';
import { BaseModel } from './BaseModel.ts';

export type DiscountKind = 'percentage' | 'fixed' | 'free_shipping';

/** A code an operator made in /admin/discounts. */
export class DiscountCode extends BaseModel {
  static override tableName = 'discount_codes';
  static override moneyColumns = ['amount', 'minimumSubtotal'];
  static override dateColumns = ['createdAt'];
  static override dayColumns = ['startsOn', 'endsOn'];

  id!: number;
  /** Upper case. */
  code!: string;
  kind!: DiscountKind;
  percent!: number;
  amount!: Cents;
  minimumSubtotal!: Cents;
  /** "2026-11-21", UTC, inclusive; null: from the start. */
  startsOn!: string | null;
  /** "2026-11-21", UTC, inclusive; null: no end. */
  endsOn!: string | null;
  maxUses!: number | null;
  uses!: number;
  /** Uses reserved by payments in progress. */
  held!: number;
  active!: boolean | number;
  createdAt!: Date;
}
