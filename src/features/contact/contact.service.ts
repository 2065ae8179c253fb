import type { Db } from '../../db.ts';
import { ContactMessage } from '../../models/ContactMessage.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { ContactInput } from './contact.schemas.ts';

export function createContactService({ db, mailer }: { db: Db; mailer: Mailer }) {
  return {
    /** Keeps the message and tells the parent it arrived (the reply comes within 24 hours). */
    async saveMessage(input: ContactInput): Promise<{ id: number }> {
      const saved = await db.transaction(async (trx) => {
        const message = await ContactMessage.query(trx).insert({ ...input, currentMember: input.currentMember === 'yes', createdAt: new Date() });
        await mailer.enqueue(trx, { to: input.email, template: 'contact-received', data: { firstName: input.firstName, subject: input.subject } });
        return message;
      });
      mailer.kick();
      return { id: saved.id };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
