import type { RequestHandler } from 'express';
import { regenerateSession } from '../../web/auth.ts';
import type { AccountsService, SessionUser } from './accounts.service.ts';

/** Whether a session signed in to `user` is still theirs: signed in since the last password change or lockout. */
export function isCurrentSession(user: Pick<SessionUser, 'sessionVersion'>, session: { sessionVersion?: number }): boolean {
  // Sessions from before versions existed carry none: they match the first version, 0.
  return user.sessionVersion === (session.sessionVersion ?? 0);
}

/**
 * A session signed in before the account's password changed (or before the lockout secured
 * it) is over: it is replaced by an empty one, and the old id is gone from the store. The
 * user it found is left for the page locals, so pages load it once.
 */
export function endStaleSessions(accounts: AccountsService): RequestHandler {
  return async (req, res, next) => {
    const userId = req.session.userId;
    if (!userId) return next();
    const user = await accounts.findSessionUser(userId);
    if (user && isCurrentSession(user, req.session)) {
      res.locals.sessionUser = user;
      return next();
    }
    await regenerateSession(req);
    next();
  };
}
