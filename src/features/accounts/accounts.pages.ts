import { Router, type Response } from 'express';
import type { z } from 'zod';
import { clientAddress } from '../../web/auth.ts';
import { withFormErrors } from '../../web/form-errors.ts';
import { localPath } from '../../web/return-path.ts';
import type { CartService } from '../cart/cart.service.ts';
import { AccountSecured } from './account-secured.ts';
import { ACCOUNT_MESSAGES as M, FAILED_LOGIN_URL, MIN_PASSWORD_LENGTH } from './accounts.messages.ts';
import { loginInput, passwordChangeInput, resetRequestInput, signupInput } from './accounts.schemas.ts';
import type { AccountsService, SessionUser } from './accounts.service.ts';
import { endUserSession, startUserSession } from './sign-in.ts';
import { TWO_FACTOR_PATH } from '../admin/operator-access.ts';
import { bodyFields } from '../../web/validate.ts';

// GET  /login                       Sign In and Create Account tabs; ?next=/path to come back to
// POST /login, /signup              the two forms (sign-in honours next)
// GET  /reset-password              forgot password (the dialog's page without JavaScript)
// POST /reset-password              mail a reset link
// GET  /reset-password/:token       choose a new password from a mailed link
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
    renderLogin(res, req.query.tab === 'signup' ? 'signup' : 'signin', { next });
  });

  router.post('/login', async (req, res) => {
    const input = loginInput.safeParse(req.body);
    const body = bodyFields(req.body);
    const next = localPath(body.next);
    if (!input.success)
      return renderLogin(
        res.status(400),
        'signin',
        { email: body.email, next },
        { title: M.missingLogin.title, text: ruleMessage(input.error, M.missingLogin.text) },
      );
    const credentials = input.data;
    await withFormErrors(
      async () => {
        const { user, mustChangePassword, sessionVersion, operator } = await accounts.signIn({
          ...credentials,
          client: clientAddress(req),
        });
        await startUserSession(req, { userId: user.id, sessionVersion }, carts);
        if (!operator) req.session.flash = { ...M.welcomeBack, variant: 'success' };
        res.redirect(303, mustChangePassword ? '/change-password' : operator ? TWO_FACTOR_PATH : (next ?? '/dashboard'));
      },
      (err) => {
        if (err instanceof AccountSecured) return res.redirect(303, FAILED_LOGIN_URL);
        renderLogin(
          res.status(err.status),
          'signin',
          { email: credentials.email, next },
          { title: M.loginFailed.title, text: err.message },
        );
      },
    );
  });

  router.post('/signup', async (req, res) => {
    const body = bodyFields(req.body);
    const values = { email: body.email, firstName: body.firstName, lastName: body.lastName };
    const input = signupInput.safeParse(req.body);
    if (!input.success)
      return renderLogin(res.status(400), 'signup', values, { title: M.signupFailed.title, text: firstMessage(input.error) });
    const account = input.data;
    await withFormErrors(
      async () => {
        const { user, sessionVersion } = await accounts.signup(account, clientAddress(req));
        await startUserSession(req, { userId: user.id, sessionVersion }, carts);
        req.session.flash = { ...M.accountCreated, variant: 'success' };
        res.redirect(303, '/dashboard');
      },
      (err) => renderLogin(res.status(err.status), 'signup', values, { title: M.signupFailed.title, text: err.message }),
    );
  });

  router.get('/reset-password', (_req, res) => res.render('accounts/reset-request', { title: 'Reset your password', values: {} }));

  router.post('/reset-password', async (req, res) => {
    const input = resetRequestInput.safeParse(req.body);
    if (!input.success) {
      return res.status(400).render('accounts/reset-request', {
        title: 'Reset your password',
        values: {},
        flash: { title: M.resetFailed.title, text: ruleMessage(input.error, M.resetMissing), variant: 'error' },
      });
    }
    const request = input.data;
    await withFormErrors(
      async () => {
        await accounts.requestReset({ email: request.email, client: clientAddress(req) });
        req.session.flash = { ...M.resetSent, variant: 'success' };
        res.redirect(303, '/login');
      },
      (err) =>
        res.status(err.status).render('accounts/reset-request', {
          title: 'Reset your password',
          values: request,
          flash: { title: M.resetFailed.title, text: err.message, variant: 'error' },
        }),
    );
  });

  router.get('/reset-password/:token', async (req, res) => {
    const valid = await accounts.isResetLinkValid(req.params.token);
    res.status(valid ? 200 : 400).render('accounts/new-password', {
      title: 'Choose a new password',
      action: req.originalUrl,
      linkInvalid: !valid,
      minLength: MIN_PASSWORD_LENGTH,
    });
  });

  router.post('/reset-password/:token', async (req, res) => {
    const input = passwordChangeInput.safeParse({
      newPassword: bodyFields(req.body).newPassword,
      confirmPassword: bodyFields(req.body).confirmPassword ?? '',
    });
    const render = (status: number, text: string) =>
      res.status(status).render('accounts/new-password', {
        title: 'Choose a new password',
        action: req.originalUrl,
        minLength: MIN_PASSWORD_LENGTH,
        flash: { title: M.passwordChangeFailed.title, text, variant: 'error' },
      });
    if (!input.success) return render(400, firstMessage(input.error));
    const { newPassword } = input.data;
    await withFormErrors(
      async () => {
        const { user, sessionVersion } = await accounts.resetWithLink(req.params.token, newPassword);
        await startUserSession(req, { userId: user.id, sessionVersion }, carts);
        req.session.flash = { ...M.passwordChanged, variant: 'success' };
        res.redirect(303, '/dashboard');
      },
      (err) => render(err.status, err.message),
    );
  });

  router.get('/change-password', (req, res) => {
    if (!req.session.userId) return res.redirect(303, '/login');
    res.render('accounts/new-password', {
      title: 'Choose a new password',
      action: '/change-password',
      forced: true,
      minLength: MIN_PASSWORD_LENGTH,
    });
  });

  router.post('/change-password', async (req, res) => {
    if (!req.session.userId) return res.redirect(303, '/login');
    const input = passwordChangeInput.safeParse({
      newPassword: bodyFields(req.body).newPassword,
      confirmPassword: bodyFields(req.body).confirmPassword ?? '',
    });
    const render = (status: number, text: string) =>
      res.status(status).render('accounts/new-password', {
        title: 'Choose a new password',
        action: '/change-password',
        forced: true,
        minLength: MIN_PASSWORD_LENGTH,
        flash: { title: M.passwordChangeFailed.title, text, variant: 'error' },
      });
    if (!input.success) return render(400, firstMessage(input.error));
    const userId = req.session.userId;
    const change = input.data;
    await withFormErrors(
      async () => {
        req.session.sessionVersion = await accounts.changePassword(userId, change);
        req.session.flash = { ...M.passwordChanged, variant: 'success' };
        // An operator's sign-in is not finished until the second factor: straight on to it.
        res.redirect(303, (res.locals.user as SessionUser | null)?.role === 'operator' ? TWO_FACTOR_PATH : '/dashboard');
      },
      (err) => render(err.status, err.message),
    );
  });

  router.get('/failedlogin', (_req, res) => res.render('accounts/failedlogin', { title: 'Account Security Alert' }));

  router.post('/logout', async (req, res) => {
    await endUserSession(req, res);
    res.redirect(303, '/?loggedout=1');
  });

  return router;
}

function renderLogin(
  res: Response,
  tab: 'signin' | 'signup',
  values: Record<string, unknown> = {},
  error?: { title: string; text: string },
): void {
  res.render('accounts/login', {
    title: tab === 'signup' ? 'Create Account' : 'Sign In',
    tab,
    values,
    error: error?.text,
    flash: error ? { ...error, variant: 'error' } : (res.locals.flash as unknown),
    minLength: MIN_PASSWORD_LENGTH,
  });
}

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Please check the form.';
}

// The schemas' own words (a missing field, a too-long email); a field of the wrong shape,
// which no form of ours sends, gets the form's usual message instead of zod's.
function ruleMessage(error: z.ZodError, fallback: string): string {
  const issue = error.issues[0];
  return issue && (issue.code === 'custom' || issue.code === 'too_big') ? issue.message : fallback;
}
