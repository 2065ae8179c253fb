import { BaseModel } from './BaseModel.ts';

export type TokenPurpose = 'reset-link' | 'temporary-password';

export class AccountToken extends BaseModel {
  static override tableName = 'account_tokens';

  id!: number;
  userId!: number;
  purpose!: TokenPurpose;
  tokenHash!: string;
  expiresAt!: Date | string;
  usedAt!: Date | string | null;
  createdAt!: Date | string;
}
