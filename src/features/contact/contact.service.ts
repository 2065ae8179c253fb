import type { Db } from '../../db.ts';
import { ContactMessage } from '../../models/ContactMessage.ts';
import type { ContactInput } from './contact.schemas.ts';

export function createContactService(db: Db) {
  return {
    async saveMessage(input: ContactInput): Promise<{ id: number }> {
      const saved = await ContactMessage.query(db).insert({
        ...input,
        currentMember: input.currentMember === 'yes',
      });
      return { id: saved.id };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
