import { BaseModel } from './BaseModel.ts';
import { OrderItem } from './OrderItem.ts';

export class Order extends BaseModel {
  static override tableName = 'orders';

  id!: number;
  userId!: number;
  status!: string;
  subtotal!: string | number;
  shipping!: string | number;
  handling!: string | number;
  tax!: string | number;
  totalAmount!: string | number;
  stripePaymentIntentId!: string | null;
  shippingAddress!: string;
  city!: string;
  state!: string | null;
  zipCode!: string;
  trackingNumber!: string | null;
  estimatedDelivery!: Date | string | null;
  carrier!: string | null;
  shippedAt!: Date | string | null;
  deliveredAt!: Date | string | null;
  canceledAt!: Date | string | null;
  /** What has been given back so far; never more than totalAmount. */
  refundedAmount!: string | number;
  createdAt!: Date | string;
  items?: OrderItem[];

  static override relationMappings = () => ({
    items: {
      relation: BaseModel.HasManyRelation,
      modelClass: OrderItem,
      join: { from: 'orders.id', to: 'order_items.orderId' },
    },
  });
}
