import { BaseModel } from './BaseModel.ts';

export type TokenPurpose = 'reset-link' | 'temporary-password';

export class AccountToken extends BaseModel {
  static override tableName = 'account_tokens';
  static override dateColumns = ['expiresAt', 'usedAt', 'createdAt'];

  id!: number;
  userId!: number;
  purpose!: TokenPurpose;
  tokenHash!: string;
  expiresAt!: Date;
  usedAt!: Date | null;
  createdAt!: Date;
}
