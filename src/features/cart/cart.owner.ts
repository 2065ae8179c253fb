import type { Request } from 'express';
import type { CartOwner } from './cart.service.ts';

/** The cart's identity comes from the session alone, never from a request body. */
export function cartOwner(req: Request): CartOwner {
  return { userId: req.session.userId, cartId: req.session.cartId };
}

/** A visitor's first addition creates their cart; the session keeps its id. */
export function rememberCart(req: Request, cartId: number): void {
  if (!req.session.userId && req.session.cartId !== cartId) req.session.cartId = cartId;
}
