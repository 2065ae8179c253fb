import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AccountsService, SessionUser } from '../../accounts/accounts.service.ts';
import type { HttpError } from '../../../web/errors.ts';
import { withFormErrors } from '../../../web/form-errors.ts';
import { errorProblems, refusal, zodProblems, type FieldProblem, type Refusal } from '../../../web/form-problems.ts';
import { regenerateSession } from '../../../web/auth.ts';
import { TWO_FACTOR_PATH } from '../../accounts/sign-in.ts';
import { operatorSigningIn } from './operator-access.ts';
import type { TwoFactor } from './two-factor.ts';

const codeInput = z.object({ code: z.string().trim().min(1, 'Please enter a code.').max(40, 'That code is too long.') });

// GET  /admin/two-factor            enter a code (or, not yet enrolled, set up an authenticator)
// POST /admin/two-factor            check a TOTP or recovery code
// POST /admin/two-factor/enrol      confirm a new authenticator with its first code; shows the ten recovery codes once
export function twoFactorPages(twoFactor: TwoFactor, accounts: AccountsService): Router {
  const router = Router();

  router.get(TWO_FACTOR_PATH, operatorSigningIn, async (req, res) => {
    const user = res.locals.user as SessionUser;
    const account = (await accounts.getOperatorFactor(user.id))!;
    if (twoFactor.isEnrolled(account)) return res.render('admin/two-factor', { title: 'Two-step sign-in' });
    await renderEnrolment(req, res, account.email);
  });

  router.post(TWO_FACTOR_PATH, operatorSigningIn, async (req, res) => {
    const user = res.locals.user as SessionUser;
    const input = codeInput.safeParse(req.body);
    const fail = (status: number, problems: FieldProblem[]) =>
      res
        .status(status)
        .render('admin/two-factor', { title: 'Two-step sign-in', problems: codeRefusal('two-factor', 'Sign-in not finished', problems) });
    if (!input.success) return fail(400, zodProblems(input.error));
    const code = input.data.code;
    await withFormErrors(
      async () => {
        const { usedRecoveryCode } = await twoFactor.verify(user.id, code);
        await passSecondFactor(req);
        const left = await twoFactor.remainingRecoveryCodes(user.id);
        req.session.flash = usedRecoveryCode
          ? { title: 'Recovery code used', text: `You have ${left} recovery code${left === 1 ? '' : 's'} left.`, variant: 'success' }
          : { title: 'Welcome back!', text: 'You are signed in to the shop admin.', variant: 'success' };
        res.redirect(303, '/admin');
      },
      (err) => fail(err.status, codeProblems(err)),
    );
  });

  router.post(`${TWO_FACTOR_PATH}/enrol`, operatorSigningIn, async (req, res) => {
    const user = res.locals.user as SessionUser;
    const account = (await accounts.getOperatorFactor(user.id))!;
    if (twoFactor.isEnrolled(account)) return res.redirect(303, TWO_FACTOR_PATH);
    const secret = req.session.enrolmentSecret;
    if (!secret) return res.redirect(303, TWO_FACTOR_PATH);
    const input = codeInput.safeParse(req.body);
    const notSetUp = (problems: FieldProblem[]) => codeRefusal('enrol', 'Authenticator not set up', problems);
    if (!input.success) return renderEnrolment(req, res.status(400), account.email, notSetUp(zodProblems(input.error)));
    await withFormErrors(
      async () => {
        const codes = await twoFactor.enrol(user.id, secret, input.data.code);
        await passSecondFactor(req);
        res.status(201).render('admin/recovery-codes', { title: 'Your recovery codes', codes });
      },
      (err) => renderEnrolment(req, res.status(err.status), account.email, notSetUp(codeProblems(err))),
    );
  });

  async function renderEnrolment(req: Request, res: Response, email: string, problems?: Refusal) {
    const secret = (req.session.enrolmentSecret ??= twoFactor.newSecret());
    const { uri, qrSvg } = await twoFactor.enrolment(email, secret);
    res.render('admin/enrol', { title: 'Set up two-step sign-in', secret, uri, qrSvg, ...(problems ? { problems } : {}) });
  }

  return router;
}

/** Both forms have the one field; a refusal of the whole form (too many tries) is listed without a link. */
function codeRefusal(form: string, title: string, problems: FieldProblem[]): Refusal {
  return refusal({ form, title, problems, ids: { code: 'code' } });
}

/** A wrong code is the field's problem; too many tries are the form's. */
function codeProblems(err: HttpError): FieldProblem[] {
  return errorProblems(err).map((p) => ({ ...p, field: p.field ?? (err.status === 429 ? undefined : 'code') }));
}

/** A fresh session id once the second factor is passed, as at any change of privilege. */
async function passSecondFactor(req: Request): Promise<void> {
  const { userId, sessionVersion, cartId } = req.session;
  await regenerateSession(req);
  Object.assign(req.session, { userId, sessionVersion, cartId, secondFactorAt: Date.now() });
}
