import type { Db } from '../../db.ts';
import type { Logger } from '../../log.ts';
import { User } from '../../models/User.ts';
import { writeAudit } from '../../models/AuditEntry.ts';
import { BadRequest, NotFound, TooManyRequests } from '../../web/errors.ts';
import type { Limits } from '../../web/throttle.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { inboxOf } from '../../lib/email.ts';
import { createAccountErasure, type Erasure } from './account-erasure.ts';
import { personalData, type PersonalData } from './personal-data.ts';
import { PRIVACY_MESSAGES as M } from './privacy.messages.ts';

/** Wrong passwords given again before a download or a deletion, per account: a stolen session guesses slowly. */
export const PASSWORD_AGAIN_LIMIT = { points: 5, windowMs: 15 * 60_000 };

export interface PrivacyDeps {
  db: Db;
  mailer: Mailer;
  payments: PaymentProvider;
  limits: Limits;
  log: Logger;
  sessionDays: number;
}

/** A parent's rights over their data, exercised by them (with their password) or by the operator for them. */
export function createPrivacy({ db, mailer, payments, limits, log, sessionDays }: PrivacyDeps) {
  const wrongPasswords = limits('password-again', PASSWORD_AGAIN_LIMIT);
  const erasure = createAccountErasure({ db, mailer, payments, log });

  /** The account's own password, counted against the account's limit; a right one gives its try back. */
  async function confirmPassword(userId: number, password: string): Promise<void> {
    const key = `account:${userId}`;
    if (!(await wrongPasswords.reserve(key)).allowed) throw new TooManyRequests(M.tooManyTries);
    const user = await User.query(db).findById(userId).select('passwordHash');
    if (!user || !(await verifyPassword(user.passwordHash, password))) throw new BadRequest(M.passwordWrong, { field: 'password' });
    await wrongPasswords.giveBack(key);
  }

  return {
    async ownData(userId: number, password: string): Promise<PersonalData> {
      await confirmPassword(userId, password);
      return personalData(db, userId, { sessionDays });
    },

    async eraseOwn(userId: number, password: string): Promise<Erasure> {
      await confirmPassword(userId, password);
      return erasure.erase(userId, { by: 'parent' });
    },

    /** The parent account at this address (any spelling of it), for the operator. */
    async findAccount(email: string): Promise<{ id: number; email: string; name: string; orders: number } | null> {
      const inbox = inboxOf(email);
      const candidates = await User.query(db)
        .where('role', 'customer')
        .whereRaw('lower(email) like ?', [`%@${inbox.slice(inbox.indexOf('@') + 1)}`]);
      const exact =
        candidates.find((u) => u.email.toLowerCase() === email.toLowerCase()) ?? candidates.find((u) => inboxOf(u.email) === inbox);
      if (!exact) return null;
      const counted = (await db('orders').where({ userId: exact.id }).count({ n: '*' }).first()) as { n: number | string };
      return { id: exact.id, email: exact.email, name: `${exact.firstName} ${exact.lastName}`, orders: Number(counted.n) };
    },

    /** The same file a parent downloads, for a parent who wrote in; the audit log says who took it. */
    async dataFor(userId: number, operatorId: number): Promise<PersonalData> {
      const data = await personalData(db, userId, { sessionDays });
      await db.transaction((trx) =>
        writeAudit(trx, {
          actorId: operatorId,
          action: 'account.exported',
          before: null,
          after: { account: userId, askedBy: 'the parent, by writing in' },
        }),
      );
      return data;
    },

    async eraseFor(userId: number, operatorId: number): Promise<Erasure> {
      if (!(await User.query(db).findById(userId))) throw new NotFound(M.noAccount);
      return erasure.erase(userId, { by: { operatorId } });
    },
  };
}

export type Privacy = ReturnType<typeof createPrivacy>;
