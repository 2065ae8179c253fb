import type { Limits } from '../../web/throttle.ts';
import { LOCKOUT, SIGNUP } from './lockout.rules.ts';

/** Every limit the accounts feature reserves against, by name. */
export function accountLimiters(limits: Limits) {
  return {
    loginByClient: limits('login-client', { points: LOCKOUT.clientFailures, windowMs: LOCKOUT.clientWindowMs }),
    loginByAccount: limits('login-account', { points: LOCKOUT.accountFailures, windowMs: LOCKOUT.accountWindowMs }),
    loginByOperatorClient: limits('login-operator', { points: LOCKOUT.operatorFailures, windowMs: LOCKOUT.operatorWindowMs }),
    resetByClient: limits('reset-client', { points: LOCKOUT.resetClientRequests, windowMs: LOCKOUT.resetClientWindowMs }),
    resetByRecipient: limits('reset-recipient', { points: 1, windowMs: LOCKOUT.mailIntervalMs }),
    temporaryPasswordByRecipient: limits('temporary-password-recipient', { points: 1, windowMs: LOCKOUT.mailIntervalMs }),
    checkEmailByClient: limits('check-email', { points: LOCKOUT.checkEmailRequests, windowMs: LOCKOUT.checkEmailWindowMs }),
    signupByClient: limits('signup-client', { points: SIGNUP.perClient, windowMs: SIGNUP.windowMs }),
  };
}

export type AccountLimiters = ReturnType<typeof accountLimiters>;
