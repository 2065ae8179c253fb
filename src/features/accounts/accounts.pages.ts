import { Router, type Response } from 'express';
import type { z } from 'zod';
import { clientAddress } from '../../web/auth.ts';
import { withFormErrors } from '../../web/form-errors.ts';
import { errorProblems, refusal, zodRefusal, type Refusal } from '../../web/form-problems.ts';
import type { HttpError } from '../../web/errors.ts';
import { takeRefusal } from '../../web/kept-refusal.ts';
import { localPath } from '../../web/return-path.ts';
import type { CartService } from '../cart/cart.service.ts';
import { AccountSecured } from './account-secured.ts';
import { ACCOUNT_MESSAGES as M, FAILED_LOGIN_URL, MIN_PASSWORD_LENGTH } from './accounts.messages.ts';
import { loginInput, passwordChangeInput, resetRequestInput, signupInput } from './accounts.schemas.ts';
import type { AccountsService, SessionUser } from './accounts.service.ts';
import { endUserSession, startHalfSignIn, startUserSession, TWO_FACTOR_PATH } from './sign-in.ts';
import { bodyFields } from '../../web/validate.ts';

// GET  /login                       Sign In and Create Account tabs; ?next=/path to come back to
// POST /login, /signup              the two forms (both honour next)
// GET  /reset-password              forgot password (the dialog's page without JavaScript)
// POST /reset-password              mail a reset link
// GET  /reset-password/:token       choose a new password from a mailed link (and a code, for an account with a second factor)
// POST /reset-password/:token
// GET  /change-password             after a temporary password: choose a new one
// POST /change-password
// GET  /failedlogin                 Account Security Alert
// POST /logout
export function accountsPages(accounts: AccountsService, carts: CartService): Router {
  const router = Router();

  router.get('/login', (req, res) => {
    const next = localPath(req.query.next);
    if (req.session.userId) return res.redirect(303, next ?? '/dashboard');
    // 'Access Denied' from a signed-in page (dashboard.pages.ts), above the form that lets the parent
    // in: kept in the session, or said by the redirect to a visitor without one (ACCESS_DENIED_URL).
    const denied = takeRefusal(req, (form) => form === 'signin')?.problems ?? (req.query.denied === '1' ? accessDenied() : undefined);
    renderLogin(res, denied ? 'signin' : req.query.tab === 'signup' ? 'signup' : 'signin', { next }, denied);
  });

  router.post('/login', async (req, res) => {
    const input = loginInput.safeParse(req.body);
    const body = bodyFields(req.body);
    const next = localPath(body.next);
    // What the parent typed comes back; a password never does.
    const values = { email: body.email, next };
    if (!input.success)
      return renderLogin(
        res.status(400),
        'signin',
        values,
        zodRefusal({ form: 'signin', title: M.missingLogin.title, error: input.error, ids: SIGNIN_IDS }),
      );
    const credentials = input.data;
    await withFormErrors(
      async () => {
        const { user, mustChangePassword, sessionVersion, operator, secondFactor } = await accounts.signIn({
          ...credentials,
          client: clientAddress(req),
        });
        // Half a sign-in: nothing but the code step until the code is given (second-step.ts).
        if (secondFactor) {
          await startHalfSignIn(req, { userId: user.id, sessionVersion, next });
          return res.redirect(303, TWO_FACTOR_PATH);
        }
        await startUserSession(req, { userId: user.id, sessionVersion }, carts);
        if (!operator) req.session.flash = { ...M.welcomeBack, variant: 'success' };
        res.redirect(303, mustChangePassword ? '/change-password' : operator ? TWO_FACTOR_PATH : (next ?? '/dashboard'));
      },
      (err) => {
        if (err instanceof AccountSecured) return res.redirect(303, FAILED_LOGIN_URL);
        renderLogin(
          res.status(err.status),
          'signin',
          values,
          refusal({ form: 'signin', title: M.loginFailed.title, problems: signInProblems(err), ids: SIGNIN_IDS }),
        );
      },
    );
  });

  router.post('/signup', async (req, res) => {
    const body = bodyFields(req.body);
    const next = localPath(body.next);
    const values = { email: body.email, firstName: body.firstName, lastName: body.lastName, next };
    const input = signupInput.safeParse(req.body);
    if (!input.success)
      return renderLogin(
        res.status(400),
        'signup',
        values,
        zodRefusal({ form: 'signup', title: M.signupFailed.title, error: input.error, ids: SIGNUP_IDS }),
      );
    const account = input.data;
    await withFormErrors(
      async () => {
        const { user, sessionVersion } = await accounts.signup(account, clientAddress(req));
        await startUserSession(req, { userId: user.id, sessionVersion }, carts);
        req.session.flash = { ...M.accountCreated, variant: 'success' };
        res.redirect(303, next ?? '/dashboard');
      },
      (err) =>
        renderLogin(
          res.status(err.status),
          'signup',
          values,
          refusal({ form: 'signup', title: M.signupFailed.title, problems: errorProblems(err), ids: SIGNUP_IDS }),
        ),
    );
  });

  const renderResetRequest = (res: Response, values: Record<string, unknown>, problems?: Refusal) =>
    res.render('accounts/reset-request', { title: 'Reset your password', values, ...(problems ? { problems } : {}) });

  router.get('/reset-password', (_req, res) => renderResetRequest(res, {}));

  router.post('/reset-password', async (req, res) => {
    const input = resetRequestInput.safeParse(req.body);
    const values = { email: bodyFields(req.body).email };
    if (!input.success) {
      return renderResetRequest(
        res.status(400),
        values,
        zodRefusal({ form: 'reset', title: M.resetFailed.title, error: input.error, ids: RESET_IDS }),
      );
    }
    const request = input.data;
    await withFormErrors(
      async () => {
        await accounts.requestReset({ email: request.email, client: clientAddress(req) });
        req.session.flash = { ...M.resetSent, variant: 'success' };
        res.redirect(303, '/login');
      },
      (err) =>
        renderResetRequest(
          res.status(err.status),
          request,
          refusal({ form: 'reset', title: M.resetFailed.title, problems: errorProblems(err), ids: RESET_IDS }),
        ),
    );
  });

  router.get('/reset-password/:token', async (req, res) => {
    const valid = await accounts.isResetLinkValid(req.params.token);
    res.status(valid ? 200 : 400).render('accounts/new-password', {
      title: 'Choose a new password',
      action: req.originalUrl,
      linkInvalid: !valid,
      askCode: valid && (await accounts.resetLinkAsksForCode(req.params.token)),
      minLength: MIN_PASSWORD_LENGTH,
    });
  });

  /** The new-password form again, refused: the reasons above it and beside each field. */
  const renderNewPassword = (res: Response, status: number, action: string, forced: boolean, askCode: boolean, problems: Refusal) =>
    res.status(status).render('accounts/new-password', {
      title: 'Choose a new password',
      action,
      forced,
      askCode,
      minLength: MIN_PASSWORD_LENGTH,
      problems,
    });
  const newPasswordInput = (body: unknown) =>
    passwordChangeInput.safeParse({
      newPassword: bodyFields(body).newPassword,
      confirmPassword: bodyFields(body).confirmPassword ?? '',
      code: bodyFields(body).code,
    });
  const newPasswordRefusal = (input: { error: z.ZodError } | { err: HttpError }) =>
    'error' in input
      ? zodRefusal({ form: 'new-password', title: M.passwordChangeFailed.title, error: input.error, ids: NEW_PASSWORD_IDS })
      : refusal({ form: 'new-password', title: M.passwordChangeFailed.title, problems: errorProblems(input.err), ids: NEW_PASSWORD_IDS });

  router.post('/reset-password/:token', async (req, res) => {
    const input = newPasswordInput(req.body);
    const askCode = () => accounts.resetLinkAsksForCode(req.params.token);
    if (!input.success)
      return renderNewPassword(res, 400, req.originalUrl, false, await askCode(), newPasswordRefusal({ error: input.error }));
    const { newPassword, code } = input.data;
    await withFormErrors(
      async () => {
        // For an account with a second factor the code was checked with the link: signed in past it.
        const { user, sessionVersion, secondFactorPassed } = await accounts.resetWithLink(req.params.token, newPassword, code);
        await startUserSession(req, { userId: user.id, sessionVersion }, carts, { secondFactorPassed });
        req.session.flash = { ...M.passwordChanged, variant: 'success' };
        res.redirect(303, '/dashboard');
      },
      async (err) => renderNewPassword(res, err.status, req.originalUrl, false, await askCode(), newPasswordRefusal({ err })),
    );
  });

  /** The forced change asks for the code too in the (rare) case of an account with a second factor. */
  const asksCode = (res: Response) => (res.locals.user as SessionUser | null)?.secondFactor === true;

  router.get('/change-password', (req, res) => {
    if (!req.session.userId) return res.redirect(303, '/login');
    res.render('accounts/new-password', {
      title: 'Choose a new password',
      action: '/change-password',
      forced: true,
      askCode: asksCode(res),
      minLength: MIN_PASSWORD_LENGTH,
    });
  });

  router.post('/change-password', async (req, res) => {
    if (!req.session.userId) return res.redirect(303, '/login');
    const input = newPasswordInput(req.body);
    if (!input.success)
      return renderNewPassword(res, 400, '/change-password', true, asksCode(res), newPasswordRefusal({ error: input.error }));
    const userId = req.session.userId;
    const change = input.data;
    await withFormErrors(
      async () => {
        req.session.sessionVersion = await accounts.changePassword(userId, change);
        req.session.flash = { ...M.passwordChanged, variant: 'success' };
        // An operator's sign-in is not finished until the second factor: straight on to it.
        res.redirect(303, (res.locals.user as SessionUser | null)?.role === 'operator' ? TWO_FACTOR_PATH : '/dashboard');
      },
      (err) => renderNewPassword(res, err.status, '/change-password', true, asksCode(res), newPasswordRefusal({ err })),
    );
  });

  router.get('/failedlogin', (_req, res) => res.render('accounts/failedlogin', { title: 'Account Security Alert' }));

  router.post('/logout', async (req, res) => {
    await endUserSession(req, res);
    res.redirect(303, '/?loggedout=1');
  });

  return router;
}

function accessDenied(): Refusal {
  return refusal({ form: 'signin', title: M.accessDenied.title, problems: [{ message: M.accessDenied.text }] });
}

function renderLogin(res: Response, tab: 'signin' | 'signup', values: Record<string, unknown> = {}, problems?: Refusal): void {
  res.render('accounts/login', {
    title: tab === 'signup' ? 'Create Account' : 'Sign In',
    tab,
    values,
    ...(problems ? { problems } : {}),
    minLength: MIN_PASSWORD_LENGTH,
    // The forgot-password dialog's own check says what the reset page says (islands/lib/reset-dialog.ts).
    resetMissing: { title: M.resetFailed.title, message: M.resetMissing },
  });
}

/**
 * A wrong email or password is told beside the password, the field a parent retypes; which of
 * the two was wrong is never said (that would tell a stranger which addresses have accounts).
 */
function signInProblems(err: HttpError) {
  return errorProblems(err).map((problem) => (err.status === 401 ? { ...problem, field: 'password' } : problem));
}

// Each form's fields and their inputs' ids, in the order the form shows them.
const SIGNIN_IDS = { email: 'signin-email', password: 'signin-password' };
const SIGNUP_IDS = {
  firstName: 'signup-first',
  lastName: 'signup-last',
  email: 'signup-email',
  password: 'signup-password',
  confirmPassword: 'signup-confirm',
};
const RESET_IDS = { email: 'reset-email' };
const NEW_PASSWORD_IDS = { newPassword: 'new-password', confirmPassword: 'confirm-password', code: 'new-password-code' };
