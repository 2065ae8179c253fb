import { formatUsd, formatUsdDecimal } from '../../src/lib/money.ts';
import { lineSupply, plusLimitReason } from '../../src/features/cart/cart.rules.ts';
import { preorderLineLabel } from '../../src/features/catalog/preorder.rules.ts';
import type { CartItemDto } from '../lib/cart-store.ts';

export interface CartLineProps {
  item: CartItemDto;
  /** True while any cart change is pending. */
  disabled: boolean;
  /** Why the last change to this line was refused, told beside it; null when none was. */
  problem?: string | null;
  onQuantity: (quantity: number) => void;
  onRemove: () => void;
}

/** One line with its quantity controls: minus at 1 removes the line; plus stops at the line's limit. */
export function CartLine({ item, disabled, problem = null, onQuantity, onRemove }: CartLineProps) {
  const { book, quantity } = item;
  // A disabled button explains nothing by itself: the reason is shown beside it and read with it.
  const atLimit = plusLimitReason(quantity, lineSupply(item));
  const limitId = `quantity-limit-${book.id}`;
  // A refusal is read with every control of the line, whichever of them was pressed.
  const problemId = `cart-line-${book.id}-error`;
  const describedBy = (...ids: Array<string | false>) => ids.filter(Boolean).join(' ') || undefined;
  const withProblem = describedBy(problem !== null && problemId);
  return (
    <li className="cart-line">
      <img
        src={book.cover.src}
        srcSet={book.cover.srcset ?? undefined}
        sizes={book.cover.srcset ? '64px' : undefined}
        alt=""
        width={64}
        height={96}
      />
      <div className="cart-line-info">
        <a href={`/books/${book.id}`}>{book.title}</a>
        {item.preorder && item.outOn && <span className="cart-line-preorder">{preorderLineLabel(item.outOn)}</span>}
        <span className="cart-line-price">{formatUsdDecimal(book.price)}</span>
        {quantity > 1 && (
          <span className="cart-line-total">
            {quantity} &times; {formatUsdDecimal(book.price)} = <strong>{formatUsd(book.priceCents * quantity)}</strong>
          </span>
        )}
      </div>
      <div className="quantity-control" role="group" aria-label={`Quantity of ${book.title}`}>
        <button
          type="button"
          className="secondary outline"
          aria-label={quantity === 1 ? `Remove ${book.title}` : `One fewer ${book.title}`}
          aria-describedby={withProblem}
          {...unlessOff(disabled, () => onQuantity(quantity - 1))}
        >
          &minus;
        </button>
        <output aria-live="polite">{quantity}</output>
        <button
          type="button"
          className="secondary outline"
          aria-label={`One more ${book.title}`}
          aria-describedby={describedBy(atLimit !== null && limitId, problem !== null && problemId)}
          {...unlessOff(disabled || atLimit !== null, () => onQuantity(quantity + 1))}
        >
          +
        </button>
      </div>
      {atLimit && (
        <small className="quantity-limit" id={limitId}>
          {atLimit}
        </small>
      )}
      <button
        type="button"
        className="remove-line secondary outline"
        aria-label={`Remove ${book.title} from cart`}
        aria-describedby={withProblem}
        {...unlessOff(disabled, onRemove)}
      >
        Remove
      </button>
      {problem !== null && (
        <small className="field-error" id={problemId} role="alert">
          {problem}
        </small>
      )}
    </li>
  );
}

/**
 * A control that is off says so (aria-disabled) and ignores presses, but keeps the keyboard
 * focus: a `disabled` button drops it to the page the moment a press makes the cart busy.
 */
function unlessOff(off: boolean, action: () => void) {
  return { 'aria-disabled': off || undefined, onClick: () => (off ? undefined : action()) };
}
