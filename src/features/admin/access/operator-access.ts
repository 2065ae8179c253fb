import type { Request, RequestHandler } from 'express';
import type { AccountsService, SessionUser } from '../../accounts/accounts.service.ts';
import { NotFound } from '../../../web/errors.ts';
import { TWO_FACTOR_PATH } from '../../accounts/sign-in.ts';

// Who may see the publisher's side: an operator (a role on users) who has passed the second
// factor in this session. To everyone else /admin does not exist: a 404, except that a
// visitor is sent to sign in. An operator part-way through signing in reaches only the
// two-factor step (accounts/second-step.ts keeps a half-signed-in session there).

declare module 'express-session' {
  interface SessionData {
    /** A secret being enrolled, until the operator confirms it with a code. */
    enrolmentSecret: string;
  }
}

export function hasPassedSecondFactor(req: Request): boolean {
  return typeof req.session.secondFactorAt === 'number';
}

/** Pages under /admin (after pageLocals): signed-in operators past the second factor. */
export const operatorPages: RequestHandler = (req, res, next) => {
  const user = res.locals.user as SessionUser | null;
  if (!user) return res.redirect(303, '/login');
  if (user.role !== 'operator') return next(new NotFound('Page Not Found'));
  if (!hasPassedSecondFactor(req)) return res.redirect(303, TWO_FACTOR_PATH);
  // Customers' names and addresses: never kept in a browser's or a proxy's cache.
  res.set('Cache-Control', 'no-store');
  next();
};

/** Setting up an authenticator: signed-in operators who have none yet. */
export const operatorSigningIn: RequestHandler = (req, res, next) => {
  const user = res.locals.user as SessionUser | null;
  if (!user) return res.redirect(303, '/login');
  if (user.role !== 'operator') return next(new NotFound('Page Not Found'));
  if (hasPassedSecondFactor(req)) return res.redirect(303, '/admin');
  next();
};

/** JSON routes for operators: a 404, as for any path that does not exist, to everyone else. */
export function operatorApi(accounts: AccountsService): RequestHandler {
  return async (req, _res, next) => {
    const user = req.session.userId ? await accounts.findSessionUser(req.session.userId) : undefined;
    next(user?.role === 'operator' && hasPassedSecondFactor(req) ? undefined : new NotFound());
  };
}

/** The operator acting in this request, for the audit log. */
export function operatorId(req: Request): number {
  return req.session.userId!;
}
