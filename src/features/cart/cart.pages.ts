import { Router, type Request } from 'express';
import { formatUsd } from '../../lib/money.ts';
import type { HttpError } from '../../web/errors.ts';
import { withFormErrors } from '../../web/form-errors.ts';
import { keepRefusal, takeRefusal, typedValues } from '../../web/kept-refusal.ts';
import { localPath } from '../../web/return-path.ts';
import { bodyFields, parse } from '../../web/validate.ts';
import { CART_TOASTS } from './cart.messages.ts';
import { cartOwner, rememberCart } from './cart.owner.ts';
import { PER_TITLE_LIMIT_TEXT } from '../catalog/per-title-limit.ts';
import { preorderLineLabel } from '../catalog/preorder.rules.ts';
import { cartTotalCents, checkoutPath, lineSupply, shipsTogetherNote, supplyLimit } from './cart.rules.ts';
import type { CartItemDto } from './cart.dto.ts';
import { bookId } from '../catalog/catalog.schemas.ts';
import { addToCart, setQuantity } from './cart.schemas.ts';
import type { CartService } from './cart.service.ts';

// The cart without JavaScript: plain forms that post and redirect back (303).
// GET  /cart                         the cart page (the drawer's fallback)
// POST /cart                         add {bookId, quantity, returnTo?} from a book page or a catalogue card
// POST /cart/items/:bookId           set a line's quantity
// POST /cart/items/:bookId/remove    remove a line
// POST /cart/clear                   empty the cart
// A refused change (sold out, too many copies) is told as every form tells one, carried across
// the redirect (src/web/kept-refusal.ts): on the cart page above the list and beside the line's
// quantity, what was typed kept; an Add to Cart on the book's page, beside its quantity.
export function cartPages(carts: CartService): Router {
  const router = Router();

  router.get('/cart', async (req, res) => {
    const items = await carts.getItems(cartOwner(req));
    const kept = takeRefusal(req, (form) => form.startsWith('cart-'));
    res.render('cart/show', {
      title: 'Shopping Cart',
      items,
      total: formatUsd(cartTotalCents(items)),
      checkoutPath: checkoutPath(Boolean(req.session.userId)),
      formatUsd,
      lineMax: (item: CartItemDto) => supplyLimit(lineSupply(item)),
      preorderLineLabel,
      shipsTogether: shipsTogetherNote(items),
      perTitleLimitText: PER_TITLE_LIMIT_TEXT,
      ...(kept ? { problems: kept.problems, typed: { form: kept.form, values: kept.values } } : { typed: { form: '', values: {} } }),
    });
  });

  router.post('/cart', async (req, res) => {
    const book = bookId.safeParse(bodyFields(req.body).bookId);
    // A catalogue card's form comes back to the list it was sent from; the book page's to the book.
    const back = localPath(bodyFields(req.body).returnTo) ?? (book.success ? `/books/${book.data}` : '/books');
    await withFormErrors(
      async () => {
        const input = parse(addToCart, req.body);
        const change = await carts.addItem(cartOwner(req), input.bookId, input.quantity);
        rememberCart(req, change.cartId);
        req.session.flash = { ...CART_TOASTS.addedFromBookPage(change.book.title), variant: 'success' };
        res.redirect(303, back);
      },
      (err) => {
        // A book that is gone (or was never named) has no page to tell it on: the error page says so.
        if (err.status === 404 || !book.success) throw err;
        // The book's own page, from a catalogue card too: its quantity can be chosen again there.
        keepRefusal(req, {
          form: `add-to-cart-${book.data}`,
          title: CART_TOASTS.addFailedFromBookPage.text,
          problems: [{ field: 'quantity', message: err.message }],
          ids: { quantity: 'quantity' },
          values: typedValues(req.body, ['quantity']),
        });
        res.redirect(303, `/books/${book.data}`);
      },
    );
  });

  router.post('/cart/items/:bookId', async (req, res) => {
    const id = parse(bookId, req.params.bookId);
    await withFormErrors(
      async () => {
        await carts.setQuantity(cartOwner(req), id, parse(setQuantity, req.body).quantity);
        res.redirect(303, '/cart');
      },
      async (err) => {
        await keepLineRefusal(req, err, id, CART_TOASTS.updateFailed.text, typedValues(req.body, ['quantity']));
        res.redirect(303, '/cart');
      },
    );
  });

  router.post('/cart/items/:bookId/remove', async (req, res) => {
    const id = parse(bookId, req.params.bookId);
    await withFormErrors(
      async () => {
        await carts.removeItem(cartOwner(req), id);
        req.session.flash = { ...CART_TOASTS.removed, variant: 'success' };
        res.redirect(303, '/cart');
      },
      async (err) => {
        await keepLineRefusal(req, err, id, CART_TOASTS.removeFailed.text, {});
        res.redirect(303, '/cart');
      },
    );
  });

  router.post('/cart/clear', async (req, res) => {
    await withFormErrors(
      async () => {
        await carts.clear(cartOwner(req));
        req.session.flash = { ...CART_TOASTS.cleared, variant: 'success' };
        res.redirect(303, '/cart');
      },
      (err) => {
        keepRefusal(req, {
          form: 'cart-clear',
          title: CART_TOASTS.clearFailed.text,
          problems: [{ message: err.message }],
          ids: {},
          values: {},
        });
        res.redirect(303, '/cart');
      },
    );
  });

  /**
   * A line's refusal, for the cart page: beside the line's quantity while the line is still
   * there to show it (a line already gone has no field to point to, only the summary).
   */
  async function keepLineRefusal(req: Request, err: HttpError, id: number, title: string, values: Record<string, string>): Promise<void> {
    const shown = (await carts.getItems(cartOwner(req))).some((item) => item.bookId === id);
    keepRefusal(req, {
      form: `cart-line-${id}`,
      title,
      problems: [shown ? { field: 'quantity', message: err.message } : { message: err.message }],
      ids: shown ? { quantity: `qty-${id}` } : {},
      values,
    });
  }

  return router;
}
