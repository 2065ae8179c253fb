import { Router } from 'express';
import { operatorPages } from './operator-access.ts';

// Every path below /admin is for operators past the second factor (operator-access.ts),
// including paths no admin router answers: to a customer they are 404s like any other.
// The pages themselves live in their own routers (status.pages.ts, ...), mounted after this one.
export function adminPages(): Router {
  const router = Router();
  router.use('/admin', operatorPages);
  return router;
}
