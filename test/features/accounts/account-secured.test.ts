import { describe, expect, it } from 'vitest';
import { AccountSecured } from '../../../src/features/accounts/account-secured.ts';
import { HttpError } from '../../../src/web/errors.ts';

// The sign-in form recognises a secured account by this class (and goes to /failedlogin);
// the JSON API answers its status, message and redirectUrl as they are.
describe('AccountSecured', () => {
  it('is a 401 that tells the API caller where to go', () => {
    const err = new AccountSecured();
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(401);
    expect({ message: err.message, ...err.details }).toEqual({ message: 'REDIRECT_TO_FAILED_LOGIN', redirectUrl: '/failedlogin' });
  });

  it('is not mistaken for another 401 that happens to carry the same words', () => {
    expect(new HttpError(401, 'REDIRECT_TO_FAILED_LOGIN')).not.toBeInstanceOf(AccountSecured);
  });
});
