import type { Limits } from '../../web/throttle.ts';
import { LOCKOUT, SIGNUP } from './lockout.rules.ts';

/** Every limit the accounts feature reserves against, by name. */
export function accountLimiters(limits: Limits) {
  return {
    loginByClient: limits('login-client', { points: LOCKOUT.clientFailures, windowMs: LOCKOUT.clientWindowMs }),
    loginByAccount: limits('login-account', { points: LOCKOUT.accountFailures, windowMs: LOCKOUT.accountWindowMs }),
    resetByClient: limits('reset-client', { points: LOCKOUT.resetClientRequests, windowMs: LOCKOUT.resetClientWindowMs }),
    checkEmailByClient: limits('check-email', { points: LOCKOUT.checkEmailRequests, windowMs: LOCKOUT.checkEmailWindowMs }),
    signupByClient: limits('signup-client', { points: SIGNUP.perClient, windowMs: SIGNUP.windowMs }),
  };
}

export type AccountLimiters = ReturnType<typeof accountLimiters>;
