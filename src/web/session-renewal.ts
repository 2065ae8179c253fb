import type { RequestHandler } from 'express';
import { hasSession } from './session-presence.ts';

/**
 * An unchanged session is never rewritten (the store has no touch), so a session is extended
 * here instead, once it is past half its life: marking it changed makes express-session save
 * it and send the cookie again, both with a fresh max age, so the two expiries agree.
 */
export function renewAgingSessions(maxAgeMs: number): RequestHandler {
  return (req, _res, next) => {
    if (!hasSession(req)) return next();
    const expires = req.session.cookie.expires;
    if (expires && expires.getTime() - Date.now() < maxAgeMs / 2) req.session.renewedAt = Date.now();
    next();
  };
}
