import { ACCOUNT_MESSAGES as M, FIELD_MESSAGES as F, MIN_PASSWORD_LENGTH } from '../../src/features/accounts/accounts.messages.ts';
import { EMAIL_PATTERN } from '../../src/lib/email.ts';
import { GIFT_NOTE_MAX, GIFT_NOTE_MESSAGES, GIFT_RECIPIENT_MAX, visibleLength } from '../../src/features/checkout/gift-note.ts';

// The checkout form's own fields, read from the server-rendered form, and the checks the
// browser makes before anything is sent (the server makes them again).

export interface CheckoutDetails {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  address: string;
  city: string;
  zipCode: string;
  /** Trimmed; empty for none. */
  giftNote: string;
  /** Who the gift is for, trimmed; empty when not said. */
  giftRecipient: string;
}

export function readDetails(form: HTMLFormElement): CheckoutDetails {
  const data = new FormData(form);
  const text = (name: string) => {
    const entry = data.get(name);
    return typeof entry === 'string' ? entry : '';
  };
  const value = (name: string) => text(name).trim();
  return {
    firstName: value('firstName'),
    lastName: value('lastName'),
    email: value('email'),
    password: text('password'),
    confirmPassword: text('confirmPassword'),
    address: value('address'),
    city: value('city'),
    zipCode: value('zipCode'),
    giftNote: value('giftNote'),
    giftRecipient: value('giftRecipient'),
  };
}

/** The checkout form's fields and their inputs' ids, in the order the form shows them. */
export const CHECKOUT_FIELD_IDS = {
  firstName: 'co-first',
  lastName: 'co-last',
  email: 'co-email',
  password: 'co-password',
  confirmPassword: 'co-confirm',
  address: 'co-address',
  city: 'co-city',
  zipCode: 'co-zip',
  giftRecipient: 'co-gift-recipient',
  giftNote: 'co-gift-note',
} as const;

export type CheckoutField = keyof typeof CHECKOUT_FIELD_IDS;

export interface CheckoutRefusal {
  title: string;
  /** The spec's words when fields are missing. */
  lead: string | null;
  problems: Array<{ field: CheckoutField; message: string }>;
}

/** Every problem with the form at once, or null when it may be sent. */
export function problemsWith(d: CheckoutDetails, variant: 'guest' | 'account'): CheckoutRefusal | null {
  const problems: CheckoutRefusal['problems'] = [];
  const missing = (field: CheckoutField, message: string) => problems.push({ field, message });
  if (variant === 'guest') {
    if (!d.firstName) missing('firstName', F.firstName);
    if (!d.lastName) missing('lastName', F.lastName);
    if (!d.email) missing('email', F.email);
    if (!d.password) missing('password', F.choosePassword);
    if (d.password && !d.confirmPassword) missing('confirmPassword', F.confirmPassword);
  }
  if (!d.address) missing('address', F.address);
  if (!d.city) missing('city', F.city);
  if (!d.zipCode) missing('zipCode', F.zipCode);
  const anyMissing = problems.length > 0;
  if (variant === 'guest') {
    if (d.email && !EMAIL_PATTERN.test(d.email)) problems.push({ field: 'email', message: M.badEmail });
    if (d.password && d.password.length < MIN_PASSWORD_LENGTH) problems.push({ field: 'password', message: M.passwordTooShort });
    else if (d.password && d.confirmPassword && d.password !== d.confirmPassword)
      problems.push({ field: 'confirmPassword', message: M.passwordsDiffer });
  }
  if (d.zipCode && !/^\d{5}$/.test(d.zipCode)) problems.push({ field: 'zipCode', message: F.zipCodeDigits });
  if (visibleLength(d.giftRecipient) > GIFT_RECIPIENT_MAX)
    problems.push({ field: 'giftRecipient', message: GIFT_NOTE_MESSAGES.recipientTooLong });
  if (visibleLength(d.giftNote) > GIFT_NOTE_MAX) problems.push({ field: 'giftNote', message: GIFT_NOTE_MESSAGES.tooLong });
  if (!problems.length) return null;
  return anyMissing
    ? { title: 'Missing Information', lead: M.signupMissing, problems }
    : { title: 'Please check your details', lead: null, problems };
}
