import type { RequestHandler } from 'express';
import { clientAddress } from './auth.ts';
import { SAFE_METHODS } from './csrf.ts';
import { TooManyRequests } from './errors.ts';
import { hasSession } from './session-presence.ts';
import type { Limit, Limiter } from './throttle.ts';

/**
 * New sessions one client address may start: a session is stored for 30 days, so a script
 * that posts without the cookie would otherwise fill the store. A household, a school or an
 * office behind one address starts far fewer.
 */
export const NEW_SESSIONS: Limit = { points: 100, windowMs: 10 * 60_000 };

export const NEW_SESSION_MESSAGE =
  'Too many visits have started from your network in the last few minutes. Please wait a few minutes and try again.';

/**
 * Only a change stores a session (reads never do), and a change from a visitor without one
 * always does: the first change is given the session's form token. So each such change
 * reserves one new session for its client address before anything is put in the session;
 * a spent limit is a 429 and nothing is stored. The count is shared by every process.
 */
export function limitNewSessions(newSessions: Limiter): RequestHandler {
  return async (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || hasSession(req)) return next();
    const { allowed } = await newSessions.reserve(clientAddress(req));
    next(allowed ? undefined : new TooManyRequests(NEW_SESSION_MESSAGE));
  };
}
