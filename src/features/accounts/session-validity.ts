import type { RequestHandler } from 'express';
import { regenerateSession } from '../../web/auth.ts';
import { existingSession } from '../../web/session-presence.ts';
import type { AccountsService } from './accounts.service.ts';

/**
 * A session signed in before the account's password changed (or before the lockout secured
 * it) is over: it is replaced by an empty one, and the old id is gone from the store. The
 * user it found is left for the page locals, so pages load it once.
 */
export function endStaleSessions(accounts: AccountsService): RequestHandler {
  return async (req, res, next) => {
    const userId = existingSession(req)?.userId;
    if (!userId) return next();
    const user = await accounts.findSessionUser(userId);
    // Sessions from before versions existed carry none: they match the first version, 0.
    if (user && user.sessionVersion === (req.session.sessionVersion ?? 0)) {
      res.locals.sessionUser = user;
      return next();
    }
    await regenerateSession(req);
    next();
  };
}
