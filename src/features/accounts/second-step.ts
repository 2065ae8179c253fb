import type { Request, RequestHandler } from 'express';
import { HttpError } from '../../web/errors.ts';
import { keepRefusal } from '../../web/kept-refusal.ts';
import { ACCOUNT_MESSAGES as M } from './accounts.messages.ts';
import type { AccountsService, SessionUser } from './accounts.service.ts';
import { isCurrentSession } from './session-validity.ts';
import { TWO_FACTOR_PATH } from './sign-in.ts';

// A password alone is half a sign-in for an account with a second factor (docs/architecture.md,
// "Sign-in, sessions and lockout"): such a session has no userId, and this gate lets it reach
// nothing but the second step and signing out.

/** How long a half sign-in waits for its code; after that the password is asked for again. */
export const HALF_SIGN_IN_MS = 10 * 60_000;

/** What a half-signed-in session may ask for: the code, signing out, and the session's own facts (its form token). */
const OPEN: ReadonlyArray<readonly [method: string, path: string]> = [
  ['GET', TWO_FACTOR_PATH],
  ['POST', TWO_FACTOR_PATH],
  ['POST', '/logout'],
  ['POST', '/api/auth/logout'],
  ['GET', '/api/session'],
];

const isOpen = (req: Request) =>
  OPEN.some(([method, path]) => (req.method === method || (method === 'GET' && req.method === 'HEAD')) && req.path === path);

/**
 * After express-session and endStaleSessions. A half-signed-in session gets its second step:
 * a page request is sent there (303), an API request is refused with 401, a readable message
 * and the step's address as `redirectUrl`. A half sign-in that waited too long, or whose
 * account's password changed meanwhile, is forgotten: the visitor is a visitor again.
 */
export function secondStepOnly(accounts: AccountsService): RequestHandler {
  return async (req, res, next) => {
    const signedIn = res.locals.sessionUser as SessionUser | undefined;
    // Signed in by the password alone (before the account set up its second factor, or before
    // the factor guarded more than /admin): the session waits for the code like a new one.
    if (signedIn?.secondFactor && !req.session.secondFactorAt) {
      req.session.halfSignIn = { userId: signedIn.id, sessionVersion: signedIn.sessionVersion, startedAt: Date.now() };
      delete req.session.userId;
      delete req.session.sessionVersion;
      delete res.locals.sessionUser;
    }
    const pending = req.session.halfSignIn;
    if (!pending) return next();
    if (Date.now() - pending.startedAt > HALF_SIGN_IN_MS) {
      delete req.session.halfSignIn;
      // Told on the sign-in form, where the next page sends the visitor.
      keepRefusal(req, {
        form: 'signin',
        title: M.secondStepExpired.title,
        problems: [{ message: M.secondStepExpired.text }],
        ids: {},
        values: {},
      });
      return next();
    }
    const account = await accounts.findSessionUser(pending.userId);
    if (!account?.secondFactor || !isCurrentSession(account, pending)) {
      delete req.session.halfSignIn;
      return next();
    }
    if (isOpen(req)) return next();
    if (req.path === '/api' || req.path.startsWith('/api/')) {
      res.set('Cache-Control', 'no-store');
      return next(new HttpError(401, M.secondStepNeeded, { redirectUrl: TWO_FACTOR_PATH }));
    }
    res.redirect(303, TWO_FACTOR_PATH);
  };
}

/** Whether this session is waiting for its second factor. */
export function isHalfSignedIn(req: Request): boolean {
  return Boolean(req.session.halfSignIn);
}
