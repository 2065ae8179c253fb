import { raw } from 'objection';
import type { Db } from '../../../db.ts';
import { AuditEntry } from '../../../models/AuditEntry.ts';
import { RecoveryCode } from '../../../models/RecoveryCode.ts';
import { User } from '../../../models/User.ts';
import { NO_PASSWORD } from '../../accounts/passwords.ts';
import { issueTemporaryPassword } from '../../accounts/temporary-password.ts';

export interface OperatorGrant {
  email: string;
  created: boolean;
  /** One-time: the first sign-in with it asks for a new password, then for the authenticator. */
  temporaryPassword: string;
  expiresAt: Date;
}

/**
 * Makes `email` an operator: a new account, or an existing one promoted. Either way the
 * password is replaced by a one-time password and the authenticator is forgotten, so the
 * person at the server's console can always get back in (a lost phone, a forgotten
 * password) and sets both up again at the next sign-in. Sessions of the account end.
 */
export async function grantOperator(db: Db, input: { email: string; firstName: string }, now = new Date()): Promise<OperatorGrant> {
  const email = input.email.toLowerCase();
  return db.transaction(async (trx) => {
    const existing = await User.query(trx).findOne({ email });
    const reset = {
      role: 'operator' as const,
      passwordHash: NO_PASSWORD,
      mustChangePassword: true,
      totpSecret: null,
      totpEnrolledAt: null,
      totpLastStep: null,
    };
    let userId: number;
    if (existing) {
      await User.query(trx)
        .findById(existing.id)
        .patch({ ...reset, sessionVersion: raw('session_version + 1') });
      await RecoveryCode.query(trx).delete().where({ userId: existing.id });
      userId = existing.id;
    } else {
      userId = (await User.query(trx).insert({ email, firstName: input.firstName, lastName: '', ...reset })).id;
    }
    const { password, expiresAt } = await issueTemporaryPassword(trx, userId, now);
    // No actor: this was done at the server's console, not by someone signed in.
    await AuditEntry.query(trx).insert({
      actorId: null,
      action: 'operator.granted',
      beforeJson: JSON.stringify(existing ? { email, role: existing.role, twoStepSignIn: Boolean(existing.totpEnrolledAt) } : null),
      afterJson: JSON.stringify({ email, role: 'operator', twoStepSignIn: false, oneTimePasswordIssued: true }),
      createdAt: now,
    });
    return { email, created: !existing, temporaryPassword: password, expiresAt };
  });
}
