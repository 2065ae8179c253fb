import { BaseModel } from './BaseModel.ts';

export type Role = 'customer' | 'operator';

export class User extends BaseModel {
  static override tableName = 'users';
  static override dateColumns = ['temporaryPasswordSentAt', 'resetLinkSentAt', 'totpEnrolledAt', 'createdAt'];

  id!: number;
  email!: string;
  passwordHash!: string;
  firstName!: string;
  lastName!: string;
  role!: Role;
  mustChangePassword!: boolean;
  temporaryPasswordSentAt!: Date | null;
  resetLinkSentAt!: Date | null;
  paymentCustomerId!: string | null;
  /** Raised when the password changes or the account is secured: older sessions end. */
  sessionVersion!: number;
  /** An operator's TOTP secret (base32); null until enrolled. */
  totpSecret!: string | null;
  totpEnrolledAt!: Date | null;
  /** The last TOTP time step accepted: a code works once. */
  totpLastStep!: number | string | null;
  /** The last address an order shipped to, or the one set in the Profile; offered at checkout. */
  savedAddress!: string | null;
  savedCity!: string | null;
  savedZipCode!: string | null;
  createdAt!: Date;
}
