// How sign-in failures, temporary passwords and reset links are bounded (docs/architecture.md, "Sign-in, sessions and lockout").
export const LOCKOUT = {
  /** Consecutive failures on one account within the window that secure it. */
  accountFailures: 5,
  accountWindowMs: 15 * 60_000,
  /** Failures from one client address, across accounts, before it is refused (429). */
  clientFailures: 20,
  clientWindowMs: 15 * 60_000,
  /**
   * Failures on an operator's account from one client address before that address is refused
   * (429) for it. An operator has a second factor, so a stranger's guesses only slow them down:
   * the account is never secured, and the operator's own address is not held up by others'.
   */
  operatorFailures: 5,
  operatorWindowMs: 15 * 60_000,
  /** Reset requests from one client address per window. */
  resetClientRequests: 10,
  resetClientWindowMs: 60 * 60_000,
  /** Live email checks from one client address per window. */
  checkEmailRequests: 60,
  checkEmailWindowMs: 10 * 60_000,
  /** One security email of each kind per account, and per inbox (however the address is spelt), per interval. */
  mailIntervalMs: 30 * 60_000,
  temporaryPasswordLifetimeMs: 24 * 60 * 60_000,
  resetLinkLifetimeMs: 60 * 60_000,
} as const;

/**
 * Each sign-up mails a welcome to an address nobody has verified yet, so sign-ups from one
 * client address are bounded too. (Not per session: every sign-up starts a new session.) One
 * inbox gets a few welcomes a day, however its address is spelt and whoever signs it up; past
 * that the account is still made, without the mail.
 */
export const SIGNUP = {
  perClient: 10,
  windowMs: 60 * 60_000,
  welcomesPerInbox: 2,
  welcomeWindowMs: 24 * 60 * 60_000,
} as const;
