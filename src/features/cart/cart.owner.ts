import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { CartOwner } from './cart.service.ts';

/** The cart's identity comes from the session alone, never from a request body. */
export function cartOwner(req: Request): CartOwner {
  // A hash, so the table never holds a value that would let someone take over the session.
  const visitorKey = req.sessionID ? createHash('sha256').update(req.sessionID).digest('hex') : undefined;
  return { userId: req.session.userId, cartId: req.session.cartId, visitorKey };
}

/** A visitor's first addition creates their cart; the session keeps its id. */
export function rememberCart(req: Request, cartId: number): void {
  if (!req.session.userId && req.session.cartId !== cartId) req.session.cartId = cartId;
}
