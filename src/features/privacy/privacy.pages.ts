import { Router, type Response } from 'express';
import type { SessionStore } from '../../web/session.ts';
import { withFormErrors } from '../../web/form-errors.ts';
import { errorProblems, refusal, zodRefusal } from '../../web/form-problems.ts';
import { signedInOnly } from '../accounts/dashboard.pages.ts';
import { endUserSession } from '../accounts/sign-in.ts';
import type { PersonalData } from './personal-data.ts';
import { PRIVACY_MESSAGES as M } from './privacy.messages.ts';
import { erasureInput, exportInput } from './privacy.schemas.ts';
import type { Privacy } from './privacy.service.ts';

// GET  /dashboard/my-data          what the download holds, and the password to give again
// POST /dashboard/my-data          the JSON file, at once
// GET  /dashboard/delete-account   what is deleted and what is kept, the password, a box to tick
// POST /dashboard/delete-account   erase the account, end every session of it, say goodbye
// GET  /account-deleted            what happened, for a visitor who no longer has an account
export function privacyPages(privacy: Privacy, sessions: Pick<SessionStore, 'endSessionsOf'>): Router {
  const router = Router();
  router.use('/dashboard', signedInOnly);

  router.get('/dashboard/my-data', (_req, res) => {
    res.render('dashboard/my-data', { title: 'Download My Data', values: {} });
  });

  router.post('/dashboard/my-data', async (req, res) => {
    const input = exportInput.safeParse(req.body ?? {});
    const refused = (status: number, problems: ReturnType<typeof refusal>) =>
      res.status(status).render('dashboard/my-data', { title: 'Download My Data', values: {}, problems });
    if (!input.success) return refused(400, zodRefusal({ form: 'my-data', title: M.exportTitle, error: input.error, ids: EXPORT_IDS }));
    await withFormErrors(
      async () => sendData(res, await privacy.ownData(req.session.userId!, input.data.password)),
      (err) => refused(err.status, refusal({ form: 'my-data', title: M.exportTitle, problems: errorProblems(err), ids: EXPORT_IDS })),
    );
  });

  router.get('/dashboard/delete-account', (_req, res) => {
    res.render('dashboard/delete-account', { title: 'Delete My Account', values: {} });
  });

  router.post('/dashboard/delete-account', async (req, res) => {
    const input = erasureInput.safeParse(req.body ?? {});
    const refused = (status: number, problems: ReturnType<typeof refusal>) =>
      res.status(status).render('dashboard/delete-account', { title: 'Delete My Account', values: {}, problems });
    if (!input.success)
      return refused(400, zodRefusal({ form: 'delete-account', title: M.deleteTitle, error: input.error, ids: ERASURE_IDS }));
    const userId = req.session.userId!;
    await withFormErrors(
      async () => {
        await privacy.eraseOwn(userId, input.data.password);
        await endUserSession(req, res);
        await sessions.endSessionsOf(userId);
        res.redirect(303, '/account-deleted');
      },
      (err) =>
        refused(err.status, refusal({ form: 'delete-account', title: M.deleteTitle, problems: errorProblems(err), ids: ERASURE_IDS })),
    );
  });

  router.get('/account-deleted', (_req, res) => {
    res.render('pages/account-deleted', { title: M.deleted.title, text: M.deleted.text });
  });

  return router;
}

/** One JSON file, named for the shop and the day, never kept by a cache on the way. */
export function sendData(res: Response, data: PersonalData): void {
  res
    .set('Cache-Control', 'no-store')
    .attachment(`little-lantern-books-data-${data.exportedAt.slice(0, 10)}.json`)
    .type('application/json')
    .send(JSON.stringify(data, null, 2));
}

const EXPORT_IDS = { password: 'my-data-password' };
const ERASURE_IDS = { password: 'delete-password', confirm: 'delete-confirm' };
