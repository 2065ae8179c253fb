import { Router, type Response } from 'express';
import { operatorId, operatorPages } from '../access/operator-access.ts';
import { isClientError } from '../../../web/errors.ts';
import { errorProblems, refusal, zodRefusal, type Refusal } from '../../../web/form-problems.ts';
import { parse } from '../../../web/validate.ts';
import type { SessionStore } from '../../../web/session.ts';
import { sendData } from '../../privacy/privacy.pages.ts';
import { accountLookupInput, operatorErasureInput } from '../../privacy/privacy.schemas.ts';
import type { Privacy } from '../../privacy/privacy.service.ts';
import { recordId } from '../../../lib/schema-fields.ts';

const accountId = recordId('Account id');
const LOOKUP_IDS = { email: 'privacy-email' };
const ERASE_IDS = { confirmEmail: 'privacy-confirmEmail' };

// GET  /admin/privacy?email=...           find the account of a parent who wrote in
// POST /admin/privacy/:id/export           their data, the same file they would download
// POST /admin/privacy/:id/erase            erase their account, with their address typed again
export function privacyRequestPages(privacy: Privacy, sessions: Pick<SessionStore, 'endSessionsOf'>): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/privacy', async (req, res) => {
    const asked = typeof req.query.email === 'string' ? req.query.email : undefined;
    if (asked === undefined) return render(res, {});
    const input = accountLookupInput.safeParse({ email: asked });
    if (!input.success)
      return render(res.status(400), {
        values: { email: asked },
        problems: zodRefusal({ form: 'privacy-lookup', title: 'No account found', error: input.error, ids: LOOKUP_IDS }),
      });
    const account = await privacy.findAccount(input.data.email);
    render(res, { values: { email: asked }, account, searched: true });
  });

  router.post('/admin/privacy/:id/export', async (req, res) => {
    sendData(res, await privacy.dataFor(parse(accountId, req.params.id), operatorId(req)));
  });

  router.post('/admin/privacy/:id/erase', async (req, res) => {
    const id = parse(accountId, req.params.id);
    const input = operatorErasureInput.safeParse(req.body ?? {});
    const refused = async (status: number, problems: Refusal) => {
      const email = input.success ? input.data.email : '';
      render(res.status(status), { values: { email }, account: email ? await privacy.findAccount(email) : null, searched: true, problems });
    };
    if (!input.success)
      return refused(400, zodRefusal({ form: 'privacy-erase', title: 'The account was not deleted', error: input.error, ids: ERASE_IDS }));
    if (input.data.confirmEmail !== input.data.email)
      return refused(
        400,
        refusal({
          form: 'privacy-erase',
          title: 'The account was not deleted',
          problems: [{ field: 'confirmEmail', message: 'Type the account’s email address exactly, to confirm' }],
          ids: ERASE_IDS,
        }),
      );
    try {
      const { ordersKept } = await privacy.eraseFor(id, operatorId(req));
      await sessions.endSessionsOf(id);
      req.session.flash = {
        title: 'Account deleted',
        text: `The account is gone; ${ordersKept === 1 ? 'its order is' : `its ${ordersKept} orders are`} kept without the person. A confirmation is on its way to the parent.`,
        variant: 'success',
      };
      res.redirect(303, '/admin/privacy');
    } catch (err) {
      if (!isClientError(err)) throw err;
      return refused(
        err.status,
        refusal({ form: 'privacy-erase', title: 'The account was not deleted', problems: errorProblems(err), ids: ERASE_IDS }),
      );
    }
  });

  return router;
}

function render(res: Response, extra: Record<string, unknown>): void {
  res.render('admin/privacy', { title: 'Privacy requests', values: {}, account: null, searched: false, ...extra });
}
