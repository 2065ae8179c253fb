import { inboxOf, mailDomainOf } from '../../lib/email.ts';
import type { Limit, Limits, Reservation } from '../../web/throttle.ts';

/**
 * Mail a stranger can cause (a welcome, a contact form's acknowledgement, a back-in-stock
 * confirmation), counted together per recipient domain: generous for parents, but one domain
 * cannot take all of the shop's sending.
 */
export const DOMAIN_MAIL_LIMIT: Limit = { points: 500, windowMs: 60 * 60_000 };

/** A cap per inbox: every spelling of an address that reaches one inbox counts against it. */
export interface InboxCap {
  reserve(email: string): Promise<Reservation>;
  /**
   * Whether one more mail may go to this address: its inbox's cap first, then its domain's,
   * so a spent inbox takes nothing from the other inboxes of its domain.
   */
  mayMail(email: string): Promise<boolean>;
}

export interface RecipientCaps {
  /** A named cap counted by inbox (src/lib/email.ts, inboxOf), shared by every process. */
  perInbox(name: string, limit: Limit): InboxCap;
  /** Reserves one mail against the recipient domain's cap; false once the domain's share is spent. */
  domainAllows(email: string): Promise<boolean>;
}

export function recipientCaps(limits: Limits): RecipientCaps {
  const byDomain = limits('mail-domain', DOMAIN_MAIL_LIMIT);
  return {
    perInbox(name, limit) {
      const limiter = limits(name, limit);
      const reserve = (email: string) => limiter.reserve(inboxOf(email));
      return { reserve, mayMail: async (email) => (await reserve(email)).allowed && (await domainAllows(email)) };
    },
    domainAllows,
  };

  async function domainAllows(email: string): Promise<boolean> {
    return (await byDomain.reserve(mailDomainOf(email))).allowed;
  }
}
