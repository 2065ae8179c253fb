import type { Limits } from '../../web/throttle.ts';
import { recipientCaps } from '../mail/recipient-caps.ts';
import { LOCKOUT, SIGNUP } from './lockout.rules.ts';

/** Every limit the accounts feature reserves against, by name. The mail caps count inboxes. */
export function accountLimiters(limits: Limits) {
  const caps = recipientCaps(limits);
  return {
    loginByClient: limits('login-client', { points: LOCKOUT.clientFailures, windowMs: LOCKOUT.clientWindowMs }),
    loginByAccount: limits('login-account', { points: LOCKOUT.accountFailures, windowMs: LOCKOUT.accountWindowMs }),
    loginByOperatorClient: limits('login-operator', { points: LOCKOUT.operatorFailures, windowMs: LOCKOUT.operatorWindowMs }),
    resetByClient: limits('reset-client', { points: LOCKOUT.resetClientRequests, windowMs: LOCKOUT.resetClientWindowMs }),
    resetByRecipient: caps.perInbox('reset-recipient', { points: 1, windowMs: LOCKOUT.mailIntervalMs }),
    temporaryPasswordByRecipient: caps.perInbox('temporary-password-recipient', { points: 1, windowMs: LOCKOUT.mailIntervalMs }),
    welcomeByRecipient: caps.perInbox('welcome-recipient', { points: SIGNUP.welcomesPerInbox, windowMs: SIGNUP.welcomeWindowMs }),
    checkEmailByClient: limits('check-email', { points: LOCKOUT.checkEmailRequests, windowMs: LOCKOUT.checkEmailWindowMs }),
    signupByClient: limits('signup-client', { points: SIGNUP.perClient, windowMs: SIGNUP.windowMs }),
  };
}

export type AccountLimiters = ReturnType<typeof accountLimiters>;
