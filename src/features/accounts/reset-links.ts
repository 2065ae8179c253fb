import { raw } from 'objection';
import type { Db } from '../../db.ts';
import type { Deferred } from '../../lib/deferred.ts';
import { AccountToken } from '../../models/AccountToken.ts';
import { User } from '../../models/User.ts';
import { BadRequest, TooManyRequests } from '../../web/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AccountLimiters } from './accounts.limits.ts';
import { ACCOUNT_MESSAGES as M } from './accounts.messages.ts';
import { LOCKOUT } from './lockout.rules.ts';
import { hashPassword, randomSecret, secretHash } from './passwords.ts';

interface Deps {
  db: Db;
  mailer: Mailer;
  limiters: AccountLimiters;
  later: Deferred;
  publicUrl: string;
}

/** Forgot-password links: single use, one hour, at most one mailed per account per 30 minutes. */
export function createResetLinks({ db, mailer, limiters, later, publicUrl }: Deps) {
  async function mailLink(email: string): Promise<void> {
    const user = await User.query(db).findOne({ email: email.toLowerCase() });
    if (!user) return;
    // The shared counter holds the interval per inbox in every process, before anything is written.
    if (!(await limiters.resetByRecipient.reserve(user.email)).allowed) return;
    const now = new Date();
    const secret = randomSecret();
    const sent = await db.transaction(async (trx) => {
      const claimed = await User.query(trx)
        .findById(user.id)
        .patch({ resetLinkSentAt: now })
        .where((q) => q.whereNull('resetLinkSentAt').orWhere('resetLinkSentAt', '<=', new Date(now.getTime() - LOCKOUT.mailIntervalMs)));
      if (!claimed) return false; // one was sent less than 30 minutes ago
      await AccountToken.query(trx).insert({
        userId: user.id,
        purpose: 'reset-link',
        tokenHash: secretHash(secret),
        expiresAt: new Date(now.getTime() + LOCKOUT.resetLinkLifetimeMs),
      });
      await mailer.enqueue(trx, {
        to: user.email,
        template: 'reset-link',
        data: {
          firstName: user.firstName,
          resetUrl: `${publicUrl}/reset-password/${secret}`,
          expiresInMinutes: LOCKOUT.resetLinkLifetimeMs / 60_000,
        },
      });
      return true;
    });
    if (sent) mailer.kick();
  }

  return {
    /**
     * Always the same answer, in the same time: whether the account exists is looked up only
     * after the answer has gone.
     */
    requestReset: async ({ email, client }: { email: string; client: string }): Promise<void> => {
      if (!(await limiters.resetByClient.reserve(client)).allowed) throw new TooManyRequests(M.tooManyAttempts);
      later.run(() => mailLink(email));
    },

    isResetLinkValid: async (secret: string): Promise<boolean> => {
      const token = await AccountToken.query(db).findOne({ purpose: 'reset-link', tokenHash: secretHash(secret) });
      return Boolean(token && !token.usedAt && token.expiresAt > new Date());
    },

    /** The account a valid reset link is for. */
    linkAccount: async (secret: string): Promise<number | undefined> => {
      const token = await AccountToken.query(db).findOne({ purpose: 'reset-link', tokenHash: secretHash(secret) });
      return token && !token.usedAt && token.expiresAt > new Date() ? token.userId : undefined;
    },

    /**
     * A reset link sets a new password once and ends every other session of the account.
     * `confirm` may refuse (a missing second factor) before anything changes.
     */
    async resetWithLink(secret: string, newPassword: string, confirm?: (userId: number) => Promise<void>): Promise<User> {
      const token = await AccountToken.query(db).findOne({ purpose: 'reset-link', tokenHash: secretHash(secret) });
      if (!token || token.usedAt || token.expiresAt <= new Date()) throw new BadRequest(M.resetLinkInvalid);
      await confirm?.(token.userId);
      const passwordHash = await hashPassword(newPassword);
      const user = await db.transaction(async (trx) => {
        const marked = await AccountToken.query(trx).patch({ usedAt: new Date() }).where({ id: token.id }).whereNull('usedAt');
        if (marked !== 1) throw new BadRequest(M.resetLinkInvalid);
        await AccountToken.query(trx).delete().where({ userId: token.userId, purpose: 'temporary-password' });
        await User.query(trx)
          .findById(token.userId)
          .patch({ passwordHash, mustChangePassword: false, sessionVersion: raw('session_version + 1') });
        const updated = await User.query(trx).findById(token.userId).throwIfNotFound();
        await mailer.enqueue(trx, {
          to: updated.email,
          template: 'password-changed',
          data: { firstName: updated.firstName, contactUrl: `${publicUrl}/contact` },
        });
        return updated;
      });
      mailer.kick();
      await limiters.loginByAccount.clear(user.email);
      return user;
    },
  };
}
