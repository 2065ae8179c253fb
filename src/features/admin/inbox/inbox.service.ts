import type { Db } from '../../../db.ts';
import { AuditEntry } from '../../../models/AuditEntry.ts';
import { ContactMessage, isUrgent } from '../../../models/ContactMessage.ts';
import { NotFound } from '../../../web/errors.ts';
import { replyHref } from './inbox.reply.ts';
import { PAGE_SIZE, pageWindow, type Page } from '../../../lib/paging.ts';

/** Longer messages fold behind a <details> so the list stays scannable. */
const FOLD_AFTER_CHARS = 280;

export interface InboxMessage {
  id: number;
  name: string;
  email: string;
  member: boolean;
  subject: string;
  createdAt: Date | string;
  text: string;
  /** The opening lines of a folded message, shown above its <details>. */
  preview: string;
  folded: boolean;
  urgent: boolean;
  unread: boolean;
  replyHref: string;
}

export function createInbox(db: Db) {
  return {
    /** URGENT subjects first, then newest first. */
    async list(requestedPage: number): Promise<Page<InboxMessage>> {
      const counted = (await db('contactMessages').count({ n: '*' }).first()) as { n: number | string };
      const total = Number(counted.n);
      const { page, pageCount, offset } = pageWindow(requestedPage, total);
      const messages = await ContactMessage.query(db)
        .orderByRaw("case when lower(subject) like '%urgent%' then 0 else 1 end")
        .orderBy([
          { column: 'createdAt', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(PAGE_SIZE)
        .offset(offset);
      return { rows: messages.map(toInboxMessage), page, pageCount, total };
    },

    async unreadCount(): Promise<number> {
      const counted = (await db('contactMessages').whereNull('readAt').count({ n: '*' }).first()) as { n: number | string };
      return Number(counted.n);
    },

    /** Marks a message read or unread; a change is written to the audit log with its before and after. */
    async setRead(input: { messageId: number; read: boolean; actorId: number }): Promise<{ name: string; changed: boolean }> {
      return db.transaction(async (trx) => {
        const message = await ContactMessage.query(trx).findById(input.messageId).forUpdate();
        if (!message) throw new NotFound('That message does not exist.');
        const name = `${message.firstName} ${message.lastName}`;
        const wasRead = message.readAt !== null;
        if (wasRead === input.read) return { name, changed: false };
        // Whole seconds, as a DATETIME column keeps it: the audit's "after" then matches the row.
        const readAt = input.read ? new Date(Math.floor(Date.now() / 1000) * 1000) : null;
        // Conditional as well as locked: of two tabs marking at once, one changes it and logs it.
        const patch = ContactMessage.query(trx).findById(message.id).patch({ readAt });
        const moved = await (input.read ? patch.whereNull('readAt') : patch.whereNotNull('readAt'));
        if (moved !== 1) return { name, changed: false };
        await AuditEntry.query(trx).insert({
          actorId: input.actorId,
          action: input.read ? 'message.read' : 'message.unread',
          contactMessageId: message.id,
          beforeJson: JSON.stringify({ readAt: message.readAt === null ? null : message.readAt.toISOString() }),
          afterJson: JSON.stringify({ readAt: readAt?.toISOString() ?? null }),
          createdAt: new Date(),
        });
        return { name, changed: true };
      });
    },
  };
}

export type Inbox = ReturnType<typeof createInbox>;

function toInboxMessage(message: ContactMessage): InboxMessage {
  return {
    id: message.id,
    name: `${message.firstName} ${message.lastName}`,
    email: message.email,
    member: Boolean(message.currentMember),
    subject: message.subject,
    createdAt: message.createdAt,
    text: message.description,
    preview: `${message.description.slice(0, 160).trimEnd()}…`,
    folded: message.description.length > FOLD_AFTER_CHARS || message.description.split('\n').length > 5,
    urgent: isUrgent(message.subject),
    unread: message.readAt === null,
    replyHref: replyHref(message.email, message.subject),
  };
}
