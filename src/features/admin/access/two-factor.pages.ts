import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { AccountsService, SessionUser } from '../../accounts/accounts.service.ts';
import type { HttpError } from '../../../web/errors.ts';
import { withFormErrors } from '../../../web/form-errors.ts';
import { errorProblems, refusal, zodProblems, type FieldProblem, type Refusal } from '../../../web/form-problems.ts';
import { regenerateSession } from '../../../web/auth.ts';
import { ACCOUNT_MESSAGES } from '../../accounts/accounts.messages.ts';
import { isHalfSignedIn } from '../../accounts/second-step.ts';
import { finishHalfSignIn, TWO_FACTOR_PATH } from '../../accounts/sign-in.ts';
import type { CartService } from '../../cart/cart.service.ts';
import { operatorSigningIn } from './operator-access.ts';
import type { TwoFactor } from './two-factor.ts';

// A field sent twice (a list) or not at all reads as empty, answered in the shop's own words.
const codeInput = z.object({
  code: z.preprocess(
    (v) => (typeof v === 'string' ? v : ''),
    z.string().trim().min(1, 'Please enter a code.').max(40, 'That code is too long.'),
  ),
});

// GET  /admin/two-factor            after the password of an account with a second factor: enter a code
//                                   (a signed-in operator without an authenticator sets one up here)
// POST /admin/two-factor            check a TOTP or recovery code; signs the half-signed-in session in
// POST /admin/two-factor/enrol      confirm a new authenticator with its first code; shows the ten recovery codes once
export function twoFactorPages(twoFactor: TwoFactor, accounts: AccountsService, carts: CartService): Router {
  const router = Router();

  router.get(TWO_FACTOR_PATH, atCodeStep, (_req, res) => res.render('admin/two-factor', { title: 'Two-step sign-in' }));

  router.get(TWO_FACTOR_PATH, operatorSigningIn, async (req, res) => {
    const user = res.locals.user as SessionUser;
    const account = (await accounts.getOperatorFactor(user.id))!;
    // Enrolled in another session: this one signs in again (accounts/second-step.ts).
    if (twoFactor.isEnrolled(account)) return res.redirect(303, '/admin');
    await renderEnrolment(req, res, account.email);
  });

  router.post(TWO_FACTOR_PATH, atCodeStep, async (req, res) => {
    const userId = req.session.halfSignIn!.userId;
    const input = codeInput.safeParse(req.body);
    const fail = (status: number, problems: FieldProblem[]) =>
      res
        .status(status)
        .render('admin/two-factor', { title: 'Two-step sign-in', problems: codeRefusal('two-factor', 'Sign-in not finished', problems) });
    if (!input.success) return fail(400, zodProblems(input.error));
    const code = input.data.code;
    await withFormErrors(
      async () => {
        const { usedRecoveryCode } = await twoFactor.verify(userId, code);
        // A fresh session id, signed in at last; the visitor's cart joins the account's.
        const { next } = await finishHalfSignIn(req, carts);
        const operator = (await accounts.findSessionUser(userId))?.role === 'operator';
        const left = await twoFactor.remainingRecoveryCodes(userId);
        req.session.flash = usedRecoveryCode
          ? { title: 'Recovery code used', text: `You have ${left} recovery code${left === 1 ? '' : 's'} left.`, variant: 'success' }
          : operator
            ? { title: 'Welcome back!', text: 'You are signed in to the shop admin.', variant: 'success' }
            : { ...ACCOUNT_MESSAGES.welcomeBack, variant: 'success' };
        res.redirect(303, next ?? (operator ? '/admin' : '/dashboard'));
      },
      (err) => fail(err.status, codeProblems(err)),
    );
  });

  // A signed-in operator without an authenticator has no code to give: it is set up first.
  router.post(TWO_FACTOR_PATH, operatorSigningIn, (_req, res) => res.redirect(303, TWO_FACTOR_PATH));

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

/** The code step is for a session half signed in (accounts/second-step.ts); anyone else goes to the next route. */
const atCodeStep: RequestHandler = (req, _res, next) => next(isHalfSignedIn(req) ? undefined : 'route');

/** A fresh session id once the second factor is passed, as at any change of privilege. */
async function passSecondFactor(req: Request): Promise<void> {
  const { userId, sessionVersion, cartId } = req.session;
  await regenerateSession(req);
  Object.assign(req.session, { userId, sessionVersion, cartId, secondFactorAt: Date.now() });
}
