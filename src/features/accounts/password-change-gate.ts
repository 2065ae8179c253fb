import type { RequestHandler } from 'express';

const ALLOWED = new Set(['/change-password', '/logout']);

/** After signing in with a temporary password, every page asks for a new password first. */
export const passwordChangeGate: RequestHandler = (req, res, next) => {
  const user = res.locals.user as { mustChangePassword?: boolean } | null;
  if (user?.mustChangePassword && !ALLOWED.has(req.path) && req.method === 'GET') return res.redirect(303, '/change-password');
  next();
};
