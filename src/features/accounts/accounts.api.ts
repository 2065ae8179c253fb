import { Router } from 'express';
import { clientAddress, requireUser } from '../../web/auth.ts';
import { Unauthorized } from '../../web/errors.ts';
import { bodyFields, parse } from '../../web/validate.ts';
import { localPath } from '../../web/return-path.ts';
import type { CartService } from '../cart/cart.service.ts';
import { ACCOUNT_MESSAGES as M } from './accounts.messages.ts';
import { checkEmailInput, loginInput, passwordChangeInput, profileInput, resetRequestInput, signupInput } from './accounts.schemas.ts';
import type { AccountsService } from './accounts.service.ts';
import { endUserSession, startHalfSignIn, startUserSession, TWO_FACTOR_PATH } from './sign-in.ts';
import { csrfToken } from '../../web/csrf.ts';

// GET  /api/auth/user             the signed-in user (401 for visitors)
// POST /api/auth/login            {email, password, next?} -> redirectUrl: next when it is a shop path;
//                                 an account with a second factor: 401, message, redirectUrl to the code step
//                                 and csrfToken (the session is half signed in, second-step.ts)
// POST /api/auth/signup           {email, password, firstName, lastName}
// POST /api/auth/reset-password   {email}
// PUT  /api/auth/profile          {firstName, lastName}
// PUT  /api/auth/password         {currentPassword, newPassword, code?}: code (TOTP or recovery) for an account with a second factor
// POST /api/auth/logout
// POST /api/check-email           {email} -> {exists}
export function accountsApi(accounts: AccountsService, carts: CartService): Router {
  const router = Router();

  router.get('/auth/user', async (req, res) => {
    const user = req.session.userId ? await accounts.getUser(req.session.userId) : undefined;
    if (!user) throw new Unauthorized('Not signed in');
    res.json(user);
  });

  router.post('/auth/login', async (req, res) => {
    const input = parse(loginInput, req.body);
    const { user, mustChangePassword, sessionVersion, secondFactor } = await accounts.signIn({ ...input, client: clientAddress(req) });
    const next = localPath(bodyFields(req.body).next);
    if (secondFactor) {
      // Not signed in yet: an answer a client cannot take for a sign-in, telling it where to go on.
      await startHalfSignIn(req, { userId: user.id, sessionVersion, next });
      res.status(401).json({ message: M.secondStepNeeded, redirectUrl: TWO_FACTOR_PATH, csrfToken: csrfToken(req) });
      return;
    }
    await startUserSession(req, { userId: user.id, sessionVersion }, carts);
    res.json({ user, redirectUrl: mustChangePassword ? '/change-password' : (next ?? '/dashboard'), csrfToken: csrfToken(req) });
  });

  router.post('/auth/signup', async (req, res) => {
    const { user, sessionVersion } = await accounts.signup(parse(signupInput, req.body), clientAddress(req));
    await startUserSession(req, { userId: user.id, sessionVersion }, carts);
    res.status(201).json({ user, csrfToken: csrfToken(req) });
  });

  router.post('/auth/reset-password', async (req, res) => {
    const { email } = parse(resetRequestInput, req.body);
    await accounts.requestReset({ email, client: clientAddress(req) });
    res.json({ message: M.resetSent.text });
  });

  router.put('/auth/profile', requireUser, async (req, res) => {
    res.json(await accounts.updateProfile(req.session.userId!, parse(profileInput, req.body)));
  });

  router.put('/auth/password', requireUser, async (req, res) => {
    req.session.sessionVersion = await accounts.changePassword(req.session.userId!, parse(passwordChangeInput, req.body));
    res.json({ message: M.passwordChanged.title });
  });

  router.post('/auth/logout', async (req, res) => {
    await endUserSession(req, res);
    res.json({ message: M.loggedOut.title });
  });

  router.post('/check-email', async (req, res) => {
    const { email } = parse(checkEmailInput, req.body);
    res.json({ exists: await accounts.emailExists(email, clientAddress(req)) });
  });

  return router;
}
