import type { Knex } from 'knex';
import { AccountToken } from '../../models/AccountToken.ts';
import { LOCKOUT } from './lockout.rules.ts';
import { secretHash, temporaryPassword } from './passwords.ts';

/**
 * Gives an account a new one-time password (replacing any earlier one), inside the caller's
 * transaction. It works once, within LOCKOUT.temporaryPasswordLifetimeMs, and signing in
 * with it asks for a new password first (lockout.ts). Only its hash is kept.
 */
export async function issueTemporaryPassword(
  trx: Knex.Transaction,
  userId: number,
  now = new Date(),
): Promise<{ password: string; expiresAt: Date }> {
  const password = temporaryPassword();
  const expiresAt = new Date(now.getTime() + LOCKOUT.temporaryPasswordLifetimeMs);
  await AccountToken.query(trx).delete().where({ userId, purpose: 'temporary-password' });
  await AccountToken.query(trx).insert({ userId, purpose: 'temporary-password', tokenHash: secretHash(password), expiresAt });
  return { password, expiresAt };
}
