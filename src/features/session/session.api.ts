import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { csrfToken } from '../../web/csrf.ts';

// GET /api/session   isAuthenticated, sessionId (an opaque public id), userId, csrfToken
export function sessionApi(): Router {
  const router = Router();

  router.get('/session', (req, res) => {
    req.session.publicId ??= randomUUID();
    res.set('Cache-Control', 'no-store').json({
      isAuthenticated: Boolean(req.session.userId),
      sessionId: req.session.publicId,
      userId: req.session.userId ?? null,
      csrfToken: csrfToken(req),
    });
  });

  return router;
}
