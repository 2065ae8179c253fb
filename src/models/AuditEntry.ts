import { BaseModel } from './BaseModel.ts';

/** One operator action: who, what, when, and the record before and after it. */
export class AuditEntry extends BaseModel {
  static override tableName = 'audit_log';
  static override dateColumns = ['createdAt'];

  id!: number;
  actorId!: number | null;
  action!: string;
  orderId!: number | null;
  contactMessageId!: number | null;
  bookId!: number | null;
  beforeJson!: string | null;
  afterJson!: string | null;
  createdAt!: Date;
}
