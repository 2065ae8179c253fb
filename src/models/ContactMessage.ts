import { BaseModel } from './BaseModel.ts';

export class ContactMessage extends BaseModel {
  static override tableName = 'contact_messages';
  static override dateColumns = ['createdAt', 'readAt'];

  id!: number;
  firstName!: string;
  lastName!: string;
  email!: string;
  currentMember!: boolean;
  subject!: string;
  description!: string;
  createdAt!: Date;
  /** When an operator read it in the inbox; null while unread. */
  readAt!: Date | null;
}

/** A subject mentioning URGENT anywhere, in any case (the contact page asks for it). */
export function isUrgent(subject: string): boolean {
  return /urgent/i.test(subject);
}
