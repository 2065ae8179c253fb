import { Router, type Request, type Response } from 'express';
import { formatUsd } from '../../lib/money.ts';
import { withFormErrors } from '../../web/form-errors.ts';
import { localPath } from '../../web/return-path.ts';
import { bodyFields, parse } from '../../web/validate.ts';
import { CART_TOASTS } from './cart.messages.ts';
import { cartOwner, rememberCart } from './cart.owner.ts';
import { lineLimit, PER_TITLE_LIMIT_TEXT } from '../catalog/per-title-limit.ts';
import { cartTotalCents, checkoutPath } from './cart.rules.ts';
import { bookId } from '../catalog/catalog.schemas.ts';
import { addToCart, setQuantity } from './cart.schemas.ts';
import type { CartService } from './cart.service.ts';

// The cart without JavaScript: plain forms that post and redirect back (303).
// GET  /cart                         the cart page (the drawer's fallback)
// POST /cart                         add {bookId, quantity, returnTo?} from a book page or a catalogue card
// POST /cart/items/:bookId           set a line's quantity
// POST /cart/items/:bookId/remove    remove a line
// POST /cart/clear                   empty the cart
export function cartPages(carts: CartService): Router {
  const router = Router();

  router.get('/cart', async (req, res) => {
    const items = await carts.getItems(cartOwner(req));
    res.render('cart/show', {
      title: 'Shopping Cart',
      items,
      total: formatUsd(cartTotalCents(items)),
      checkoutPath: checkoutPath(Boolean(req.session.userId)),
      formatUsd,
      lineLimit,
      perTitleLimitText: PER_TITLE_LIMIT_TEXT,
    });
  });

  router.post('/cart', async (req, res) => {
    const book = bookId.safeParse(bodyFields(req.body).bookId);
    // A catalogue card's form comes back to the list it was sent from; the book page's to the book.
    const back = localPath(bodyFields(req.body).returnTo) ?? (book.success ? `/books/${book.data}` : '/books');
    await respond(req, res, back, async () => {
      const input = parse(addToCart, req.body);
      const change = await carts.addItem(cartOwner(req), input.bookId, input.quantity);
      rememberCart(req, change.cartId);
      return CART_TOASTS.addedFromBookPage(change.book.title);
    });
  });

  router.post('/cart/items/:bookId', async (req, res) => {
    await respond(req, res, '/cart', async () => {
      const id = parse(bookId, req.params.bookId);
      await carts.setQuantity(cartOwner(req), id, parse(setQuantity, req.body).quantity);
      return undefined;
    });
  });

  router.post('/cart/items/:bookId/remove', async (req, res) => {
    await respond(req, res, '/cart', async () => {
      await carts.removeItem(cartOwner(req), parse(bookId, req.params.bookId));
      return CART_TOASTS.removed;
    });
  });

  router.post('/cart/clear', async (req, res) => {
    await respond(req, res, '/cart', async () => {
      await carts.clear(cartOwner(req));
      return CART_TOASTS.cleared;
    });
  });

  return router;
}

type Toast = { title: string; text: string } | undefined;

// A refused change (sold out, too many copies) comes back as an error toast on the page.
async function respond(req: Request, res: Response, back: string, change: () => Promise<Toast>): Promise<void> {
  await withFormErrors(
    async () => {
      const toast = await change();
      if (toast) req.session.flash = { ...toast, variant: 'success' };
    },
    (err) => {
      req.session.flash = { title: 'Error', text: err.message, variant: 'error' };
    },
  );
  res.redirect(303, back);
}
