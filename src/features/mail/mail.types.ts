// The shape of every message the shop sends, in one module the mailer, the renderer and the
// subjects share (so none of them imports another for its types). Each template's data is a
// type: a caller that leaves something out, or misspells a template, fails to compile.

/** An amount as the messages print it after a dollar sign ("12.99"). */
type Decimal = string;

interface MailLine {
  title: string;
  quantity: number;
  price: Decimal;
}

/**
 * What happened to an order, told as its page tells it (features/orders/order-story.ts): the
 * sender computes it for the order as it is when the message is sent, and the message shows
 * its heading, icon and sentences word for word.
 */
interface MailStory {
  heading: string;
  icon: string;
  tone: string;
  sentences: string[];
}

interface MailAddress {
  shippingAddress: string;
  city: string;
  state?: string | null;
  zipCode: string;
}

/** What each template renders. */
export interface MailData {
  welcome: { firstName: string };
  'temporary-password': {
    firstName: string;
    temporaryPassword: string;
    loginUrl: string;
    expiresInHours: number;
    /** How many wrong passwords in a row secured the account, and when the last one came ("November 21, 2026 at 9:05 PM UTC"). */
    failedAttempts: number;
    securedAt: string;
    /** Where the parent resets the password themselves if they want one nobody has seen. */
    resetUrl: string;
  };
  'reset-link': { firstName: string; resetUrl: string; expiresInMinutes: number };
  'password-changed': { firstName: string; contactUrl: string };
  'order-confirmation': MailAddress & {
    firstName: string;
    orderId: number;
    items: MailLine[];
    subtotal: Decimal;
    /** "0.00" without a code. */
    discount: Decimal;
    /** Empty without a code. */
    discountCode: string;
    shipping: Decimal;
    handling: Decimal;
    tax: Decimal;
    total: Decimal;
    /** The parent's own words: escaped in the HTML part like everything else. */
    giftNote?: string | null;
    giftRecipient?: string | null;
    orderUrl: string;
    story: MailStory;
  };
  /** A payment refunded before it became an order: the reference is the payment's. */
  'order-refunded': { firstName: string; orderId: number | string; total: Decimal; reason: string };
  'order-shipped': {
    firstName: string;
    orderId: number;
    carrier: string;
    trackingNumber: string;
    /** Empty for a carrier without a tracking page. */
    trackingLink: string;
    estimatedDelivery: string;
    orderUrl: string;
    /** The shipped order's story: carrier, tracking number, day, and any money given back. */
    story: MailStory;
  };
  'order-canceled': {
    firstName: string;
    orderId: number;
    /** What the order has had back in all; "0.00" when nothing was charged. */
    refunded: Decimal;
    /** The canceled order's story: the amount refunded. */
    story: MailStory;
  };
  'order-partial-refund': {
    firstName: string;
    orderId: number;
    /** This refund. */
    amount: Decimal;
    reason: string;
    /** What the order's story now says of the money given back in all (refundedSentence in order-story.ts). */
    refundedSoFar: string;
  };
  /**
   * The operator moved the publication date of a title the parent pre-ordered: the new date, the
   * order's shipping day as its story now tells it, and the one-click cancel-and-refund link.
   */
  'preorder-date-moved': {
    firstName: string;
    orderId: number;
    title: string;
    /** Long dates, as the parent reads them ("March 2, 2027"). */
    previousDate: string;
    newDate: string;
    /** The pre-order's story with its new shipping day (preorderedSentence). */
    story: MailStory;
    orderUrl: string;
    /** The signed link to the page with one "Cancel and refund" button; needs no sign-in. */
    cancelUrl: string;
  };
  'contact-received': { firstName: string };
  /** The account was deleted (by the parent, or by the shop at their request): what went and what stays. */
  'account-deleted': { firstName: string; ordersKept: number };
  /** A parent asked to hear when a Coming Soon book is back: the confirmation, with the cancel link. */
  'back-in-stock-waiting': { title: string; bookUrl: string; unsubscribeUrl: string };
  'back-in-stock': { title: string; bookUrl: string; unsubscribeUrl: string };
  'shop-new-order': MailAddress & {
    orderId: number;
    customerName: string;
    customerEmail: string;
    items: MailLine[];
    total: Decimal;
    adminUrl: string;
    /** The gift slip to pack with a gift (it shows no prices); null for an ordinary order. */
    giftSlipUrl: string | null;
    /** A pre-order: the day it ships, as a long date ("March 2, 2027"); null for an order to pack now. */
    preorderShipsOn: string | null;
  };
  'shop-new-message': {
    fromName: string;
    fromEmail: string;
    member: boolean;
    messageSubject: string;
    message: string;
    urgent: boolean;
    inboxUrl: string;
  };
}

export type MailTemplate = keyof MailData;

// Written out so that adding a template to MailData without listing it here fails to compile.
const TEMPLATES: { readonly [T in MailTemplate]: true } = {
  welcome: true,
  'temporary-password': true,
  'reset-link': true,
  'password-changed': true,
  'order-confirmation': true,
  'order-refunded': true,
  'order-shipped': true,
  'order-canceled': true,
  'order-partial-refund': true,
  'preorder-date-moved': true,
  'contact-received': true,
  'account-deleted': true,
  'back-in-stock-waiting': true,
  'back-in-stock': true,
  'shop-new-order': true,
  'shop-new-message': true,
};

export const mailTemplates = Object.keys(TEMPLATES) as readonly MailTemplate[];

export interface MailRequest<T extends MailTemplate = MailTemplate> {
  to: string;
  template: T;
  data: MailData[T];
  /** At most one message per key, ever (e.g. `order-confirmation:42`). */
  dedupeKey?: string;
  /** The order the message is about, for the order's timeline in /admin. */
  orderId?: number;
  /** An absolute link that stops such messages, sent as List-Unsubscribe with one-click POST. */
  unsubscribeUrl?: string;
  /** Deleted from the outbox once sent, not kept: the address is being forgotten. */
  forgetAfterSend?: boolean;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailRenderer {
  render<T extends MailTemplate>(template: T, data: MailData[T]): RenderedMail;
}
