import { BaseModel } from './BaseModel.ts';

/** A single-use code that stands in for an operator's authenticator; only its SHA-256 is kept. */
export class RecoveryCode extends BaseModel {
  static override tableName = 'recovery_codes';
  static override dateColumns = ['usedAt', 'createdAt'];

  id!: number;
  userId!: number;
  codeHash!: string;
  usedAt!: Date | null;
  createdAt!: Date;
}
