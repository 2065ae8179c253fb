import { BaseModel } from './BaseModel.ts';
import { CartItem } from './CartItem.ts';

export class Cart extends BaseModel {
  static override tableName = 'carts';

  id!: number;
  userId!: number | null;
  /** A hash of the visitor session's id; null for an account's cart. */
  visitorKey?: string | null;
  items?: CartItem[];

  static override relationMappings = () => ({
    items: {
      relation: BaseModel.HasManyRelation,
      modelClass: CartItem,
      join: { from: 'carts.id', to: 'cart_items.cartId' },
    },
  });
}
