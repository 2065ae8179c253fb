import { raw } from 'objection';
import type { Db } from '../../db.ts';
import { AccountToken } from '../../models/AccountToken.ts';
import { User } from '../../models/User.ts';
import { TooManyRequests, Unauthorized } from '../../web/errors.ts';
import { longDateTime } from '../../lib/dates.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AccountLimiters } from './accounts.limits.ts';
import { AccountSecured } from './account-secured.ts';
import { ACCOUNT_MESSAGES as M } from './accounts.messages.ts';
import { LOCKOUT } from './lockout.rules.ts';
import { NO_PASSWORD, secretHash, verifyAgainstDummy, verifyPassword } from './passwords.ts';
import { issueTemporaryPassword } from './temporary-password.ts';

/** An enrolled operator: the second factor guards the account, so failed passwords only slow down. */
function hasSecondFactor(user: User): boolean {
  return user.role === 'operator' && Boolean(user.totpEnrolledAt);
}

export interface VerifiedUser {
  user: User;
  /** A temporary password was used: a new one must be chosen before anything else. */
  mustChangePassword: boolean;
}

/**
 * Sign-in checks under the lockout rules (lockout.rules.ts). Every attempt is reserved against the
 * client's and the account's allowance before the password hash runs, so no burst of parallel
 * guesses gets more than the allowance checked. A parent's account is secured after repeated
 * failures; operators, who have a second factor, are throttled instead.
 */
export function createLockout({
  db,
  mailer,
  limiters,
  publicUrl,
}: {
  db: Db;
  mailer: Mailer;
  limiters: AccountLimiters;
  publicUrl: string;
}) {
  const loginFailed = () => new Unauthorized(M.loginFailed.text);
  const accountSecured = () => new AccountSecured();

  /**
   * Replaces the password with a temporary one, mailed; ends every session of the account.
   * The conditional update lets one caller per 30 minutes win, however many race here.
   */
  async function secureAccount(user: User): Promise<void> {
    // The recipient's cap comes first: a password is only replaced when the mail carrying its
    // successor can be written, or the parent would be left with no way in.
    if (!(await limiters.temporaryPasswordByRecipient.reserve(user.email)).allowed) return;
    const now = new Date();
    const claimed = await db.transaction(async (trx) => {
      const won = await User.query(trx)
        .findById(user.id)
        .patch({
          passwordHash: NO_PASSWORD,
          mustChangePassword: false,
          temporaryPasswordSentAt: now,
          sessionVersion: raw('session_version + 1'),
        })
        .where((q) =>
          q.whereNull('temporaryPasswordSentAt').orWhere('temporaryPasswordSentAt', '<=', new Date(now.getTime() - LOCKOUT.mailIntervalMs)),
        );
      if (!won) return false;
      const { password } = await issueTemporaryPassword(trx, user.id, now);
      await mailer.enqueue(trx, {
        to: user.email,
        template: 'temporary-password',
        data: {
          firstName: user.firstName,
          temporaryPassword: password,
          loginUrl: `${publicUrl}/login`,
          expiresInHours: LOCKOUT.temporaryPasswordLifetimeMs / 3_600_000,
          failedAttempts: LOCKOUT.accountFailures,
          securedAt: longDateTime(now),
          resetUrl: `${publicUrl}/reset-password`,
        },
      });
      return true;
    });
    if (claimed) mailer.kick();
  }

  /**
   * A temporary password works once, before it expires. It is a random secret looked up by
   * its SHA-256 (no slow hash), the same query whether or not the account exists.
   */
  async function useTemporaryPassword(user: User | undefined, password: string): Promise<boolean> {
    const token = await AccountToken.query(db).findOne({ purpose: 'temporary-password', tokenHash: secretHash(password) });
    if (!user || !token || token.userId !== user.id || token.usedAt) return false;
    if (token.expiresAt <= new Date()) throw new Unauthorized(M.temporaryExpired);
    return db.transaction(async (trx) => {
      const marked = await AccountToken.query(trx).patch({ usedAt: new Date() }).where({ id: token.id }).whereNull('usedAt');
      if (marked === 1) await User.query(trx).findById(user.id).patch({ mustChangePassword: true });
      return marked === 1;
    });
  }

  /**
   * An operator's failures are counted per address and account, and past the allowance that
   * address waits (429). The password is never replaced: strangers guessing from elsewhere
   * can neither sign the operator out nor keep them from signing in.
   */
  async function operatorSignIn(user: User, password: string, client: string): Promise<VerifiedUser> {
    const key = `${user.id}:${client}`;
    if (!(await limiters.loginByOperatorClient.reserve(key)).allowed) throw new TooManyRequests(M.tooManyAttempts);
    const succeeded = async (mustChangePassword: boolean): Promise<VerifiedUser> => {
      await Promise.all([limiters.loginByOperatorClient.clear(key), limiters.loginByClient.giveBack(client)]);
      return { user, mustChangePassword };
    };
    if (await verifyPassword(user.passwordHash, password)) return succeeded(Boolean(user.mustChangePassword));
    if (await useTemporaryPassword(user, password)) return succeeded(true);
    throw loginFailed();
  }

  return {
    async signIn({
      email,
      password,
      client,
      findByEmail,
    }: {
      email: string;
      password: string;
      client: string;
      findByEmail: (email: string) => Promise<User | undefined>;
    }): Promise<VerifiedUser> {
      const accountKey = email.toLowerCase();
      if (!(await limiters.loginByClient.reserve(client)).allowed) throw new TooManyRequests(M.tooManyAttempts);
      const user = await findByEmail(email);
      if (user && hasSecondFactor(user)) return operatorSignIn(user, password, client);
      const account = await limiters.loginByAccount.reserve(accountKey);
      const succeeded = async (mustChangePassword: boolean): Promise<VerifiedUser> => {
        // A success ends the run of failures and does not count against the address.
        await Promise.all([limiters.loginByAccount.clear(accountKey), limiters.loginByClient.giveBack(client)]);
        return { user: user!, mustChangePassword };
      };

      if (!account.allowed) {
        // The account's guesses are spent: only the temporary password mailed to its owner opens it.
        if (await useTemporaryPassword(user, password)) return succeeded(true);
        throw accountSecured();
      }
      if (user && (await verifyPassword(user.passwordHash, password))) return succeeded(Boolean(user.mustChangePassword));
      if (!user) await verifyAgainstDummy(password);
      if (await useTemporaryPassword(user, password)) return succeeded(true);

      if (account.used < LOCKOUT.accountFailures) throw loginFailed();
      if (user) await secureAccount(user);
      throw accountSecured();
    },
  };
}
