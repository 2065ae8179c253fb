import type { NextFunction, Request, Response } from 'express';

/**
 * Whether the visitor has a session worth the name: one with something in it. express-session
 * gives every request a session object, but stores only those something was put in (a cart,
 * a sign-in, a form token), so an empty one is a visitor the shop knows nothing of yet.
 */
export function hasSession(req: Request): boolean {
  const session = req.session as object | undefined;
  if (!session) return false;
  for (const key in session) if (key !== 'cookie' && Object.hasOwn(session, key)) return true;
  return false;
}

/**
 * A page made for one visitor's session is theirs alone: no shared cache may keep it, and the
 * browser asks again before showing it (a 304 when nothing changed).
 */
export const PERSONAL_PAGE_CACHING = 'private, no-cache';

export function personalPages(req: Request, res: Response, next: NextFunction): void {
  if (hasSession(req)) res.setHeader('Cache-Control', PERSONAL_PAGE_CACHING);
  next();
}
