import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { csrfToken } from '../../web/csrf.ts';
import { hasSession } from '../../web/session-presence.ts';

// GET /api/session   isAuthenticated, sessionId (an opaque public id), userId, csrfToken
//
// Reading creates no session: a visitor without one gets null for sessionId and csrfToken,
// and their first change (accepted on the browser's same-origin signal) makes the session.
export function sessionApi(): Router {
  const router = Router();

  router.get('/session', (req, res) => {
    const stored = hasSession(req);
    if (stored) req.session.publicId ??= randomUUID();
    res.set('Cache-Control', 'no-store').json({
      isAuthenticated: Boolean(req.session.userId),
      sessionId: stored ? req.session.publicId : null,
      userId: req.session.userId ?? null,
      csrfToken: csrfToken(req) || null,
    });
  });

  return router;
}
