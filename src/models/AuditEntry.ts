import type { Knex } from 'knex';
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

export interface AuditRecord {
  /** null: the shop itself acted (a pre-order moved to To pack on publication day). */
  actorId: number | null;
  action: string;
  orderId?: number;
  contactMessageId?: number;
  bookId?: number;
  before: unknown;
  after: unknown;
}

/** Written inside the transaction of the change it records, so the log never claims what did not happen. */
export async function writeAudit(trx: Knex.Transaction, record: AuditRecord): Promise<void> {
  await AuditEntry.query(trx).insert({
    actorId: record.actorId,
    action: record.action,
    orderId: record.orderId ?? null,
    contactMessageId: record.contactMessageId ?? null,
    bookId: record.bookId ?? null,
    beforeJson: JSON.stringify(record.before ?? null),
    afterJson: JSON.stringify(record.after ?? null),
    createdAt: new Date(),
  });
}
