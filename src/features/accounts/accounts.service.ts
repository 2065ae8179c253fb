import type { Db } from '../../db.ts';
import { User } from '../../models/User.ts';

export interface SessionUser {
  id: number;
  firstName: string;
  role: User['role'];
}

export function createAccountsService(db: Db) {
  return {
    /** The signed-in user the session names, or undefined if the account is gone. */
    async findSessionUser(userId: number): Promise<SessionUser | undefined> {
      const user = await User.query(db).findById(userId).select('id', 'first_name', 'role');
      return user ? { id: user.id, firstName: user.firstName, role: user.role } : undefined;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
