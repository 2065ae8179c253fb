import { HttpError } from '../../web/errors.ts';
import { FAILED_LOGIN_MARKER, FAILED_LOGIN_URL } from './accounts.messages.ts';

/**
 * Sign-in refused because the lockout has just secured (or already holds) the account. The
 * API answers its marker message and redirectUrl (docs/architecture.md, "Sign-in, sessions and lockout"); the sign-in form knows it
 * by its class and goes to the failed-login screen.
 */
export class AccountSecured extends HttpError {
  constructor() {
    super(401, FAILED_LOGIN_MARKER, { redirectUrl: FAILED_LOGIN_URL });
    this.name = 'AccountSecured';
  }
}
