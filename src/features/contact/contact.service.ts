import type { Db } from '../../db.ts';
import { ContactMessage } from '../../models/ContactMessage.ts';
import { TooManyRequests } from '../../web/errors.ts';
import type { Limits } from '../../web/throttle.ts';
import { greetingName } from '../mail/greeting.ts';
import type { Mailer } from '../mail/mailer.ts';
import { recipientCaps } from '../mail/recipient-caps.ts';
import type { ShopNotifications } from '../mail/shop-notifications.ts';
import { CONTACT_LIMITS, CONTACT_MAIL_LIMITS as MAIL, CONTACT_MESSAGES, type ContactInput } from './contact.schemas.ts';

// The shop's notifications all go to one address: one counter for the whole shop.
const SHOP_INBOX = 'shop';

export function createContactService({
  db,
  mailer,
  limits,
  notify,
}: {
  db: Db;
  mailer: Mailer;
  limits: Limits;
  notify: ShopNotifications;
}) {
  const byClient = limits('contact-client', { points: CONTACT_LIMITS.perClient, windowMs: CONTACT_LIMITS.windowMs });
  const bySession = limits('contact-session', { points: CONTACT_LIMITS.perSession, windowMs: CONTACT_LIMITS.windowMs });
  const byRecipient = recipientCaps(limits).perInbox('contact-recipient', {
    points: MAIL.acknowledgementsPerRecipient,
    windowMs: MAIL.acknowledgementWindowMs,
  });
  const shopAlerts = limits('contact-shop-notify', { points: MAIL.shopNotifications, windowMs: MAIL.shopNotificationWindowMs });

  /**
   * Which mail this message may cause, reserved before anything is written so parallel
   * requests cannot all slip under a cap. A spent cap holds back only the mail: the message is
   * kept and the sender sees the same answer, so the form tells nobody what an address received.
   * The acknowledgement counts the inbox the address reaches, and its domain.
   */
  async function reserveMail(email: string): Promise<{ acknowledge: boolean; alertShop: boolean }> {
    const [acknowledge, alertShop] = await Promise.all([byRecipient.mayMail(email), shopAlerts.reserve(SHOP_INBOX)]);
    return { acknowledge, alertShop: alertShop.allowed };
  }

  return {
    /**
     * Keeps the message and tells the parent it arrived (the reply comes within 24 hours).
     * The acknowledgement goes to an address nobody has verified, so sends are limited per
     * client address and per session, capped per inbox, and it repeats nothing the sender
     * wrote but a plain name.
     */
    async saveMessage(input: ContactInput, { client, session }: { client: string; session: string }): Promise<{ id: number }> {
      if (!(await byClient.reserve(client)).allowed || !(await bySession.reserve(session)).allowed) {
        throw new TooManyRequests(CONTACT_MESSAGES.tooMany.text);
      }
      const mail = await reserveMail(input.email);
      const saved = await db.transaction(async (trx) => {
        const message = await ContactMessage.query(trx).insert({
          ...input,
          currentMember: input.currentMember === 'yes',
          createdAt: new Date(),
        });
        if (mail.acknowledge) {
          await mailer.enqueue(trx, { to: input.email, template: 'contact-received', data: { firstName: greetingName(input.firstName) } });
        }
        if (mail.alertShop) {
          await notify.newMessage(trx, {
            firstName: input.firstName,
            lastName: input.lastName,
            email: input.email,
            member: message.currentMember,
            subject: input.subject,
            message: input.description,
          });
        }
        return message;
      });
      mailer.kick();
      return { id: saved.id };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
