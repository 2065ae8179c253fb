import type { Cents } from '../lib/money.ts';
import { BaseModel } from './BaseModel.ts';
import { OrderItem } from './OrderItem.ts';

export class Order extends BaseModel {
  static override tableName = 'orders';
  static override moneyColumns = ['subtotal', 'discount', 'shipping', 'handling', 'tax', 'totalAmount', 'refundedAmount'];
  static override dateColumns = ['shippedAt', 'deliveredAt', 'canceledAt', 'createdAt'];
  static override dayColumns = ['estimatedDelivery'];

  id!: number;
  /** null once the account was erased: the order stays, without the person. */
  userId!: number | null;
  status!: string;
  subtotal!: Cents;
  shipping!: Cents;
  handling!: Cents;
  tax!: Cents;
  totalAmount!: Cents;
  stripePaymentIntentId!: string | null;
  shippingAddress!: string;
  city!: string;
  state!: string | null;
  zipCode!: string;
  trackingNumber!: string | null;
  /** "2026-11-21". */
  estimatedDelivery!: string | null;
  carrier!: string | null;
  shippedAt!: Date | null;
  deliveredAt!: Date | null;
  canceledAt!: Date | null;
  /** What has been given back so far; never more than totalAmount. */
  refundedAmount!: Cents;
  /** The discount code used (upper case), and what it took off the subtotal. */
  discountCode!: string | null;
  discount!: Cents;
  /** The parent's gift note, printed on the gift packing slip; null when none. */
  giftNote!: string | null;
  /** Who the gift is for: the name on the gift packing slip; null when not said. */
  giftRecipient!: string | null;
  createdAt!: Date;
  items?: OrderItem[];

  static override relationMappings = () => ({
    items: {
      relation: BaseModel.HasManyRelation,
      modelClass: OrderItem,
      join: { from: 'orders.id', to: 'order_items.orderId' },
    },
  });
}
