import { Router } from 'express';
import { parse } from '../../web/validate.ts';
import { cartOwner, rememberCart } from './cart.owner.ts';
import { bookId } from '../catalog/catalog.schemas.ts';
import { addToCart, setQuantity } from './cart.schemas.ts';
import type { CartService } from './cart.service.ts';

// GET    /api/cart           the cart's lines, each with its book
// POST   /api/cart           {bookId, quantity = 1}
// PUT    /api/cart/:bookId   {quantity}; below 1 removes the line
// DELETE /api/cart/:bookId   remove the line
// DELETE /api/cart           clear the cart
// Every change answers with the cart as it now is.
export function cartApi(carts: CartService): Router {
  const router = Router();

  router.get('/cart', async (req, res) => {
    res.json(await carts.getItems(cartOwner(req)));
  });

  router.post('/cart', async (req, res) => {
    const { bookId, quantity } = parse(addToCart, req.body);
    const change = await carts.addItem(cartOwner(req), bookId, quantity);
    rememberCart(req, change.cartId);
    res.status(201).json(change.items);
  });

  router.put('/cart/:bookId', async (req, res) => {
    const id = parse(bookId, req.params.bookId);
    const { quantity } = parse(setQuantity, req.body);
    res.json((await carts.setQuantity(cartOwner(req), id, quantity)).items);
  });

  router.delete('/cart/:bookId', async (req, res) => {
    res.json(await carts.removeItem(cartOwner(req), parse(bookId, req.params.bookId)));
  });

  router.delete('/cart', async (req, res) => {
    await carts.clear(cartOwner(req));
    res.json([]);
  });

  return router;
}
