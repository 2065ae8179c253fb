import { ACCOUNT_MESSAGES as M, MIN_PASSWORD_LENGTH } from '../../src/features/accounts/accounts.messages.ts';
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

/** The first problem with the form, as a toast, or null when it may be sent. */
export function problemWith(d: CheckoutDetails, variant: 'guest' | 'account'): { title: string; text: string } | null {
  const missing = { title: 'Missing Information', text: M.signupMissing };
  if (variant === 'guest') {
    if (!d.firstName || !d.lastName || !d.email || !d.password) return missing;
    if (!EMAIL_PATTERN.test(d.email)) return { title: 'Invalid Email Address', text: M.badEmail };
    if (d.password !== d.confirmPassword) return { title: 'Account Creation Failed', text: M.passwordsDiffer };
    if (d.password.length < MIN_PASSWORD_LENGTH) return { title: 'Account Creation Failed', text: M.passwordTooShort };
  }
  if (!d.address || !d.city || !d.zipCode) return missing;
  if (!/^\d{5}$/.test(d.zipCode)) return { title: 'Missing Information', text: 'Please enter a 5-digit ZIP code.' };
  if (visibleLength(d.giftNote) > GIFT_NOTE_MAX) return { title: 'Gift Note Too Long', text: GIFT_NOTE_MESSAGES.tooLong };
  if (visibleLength(d.giftRecipient) > GIFT_RECIPIENT_MAX)
    return { title: 'Gift Note Too Long', text: GIFT_NOTE_MESSAGES.recipientTooLong };
  return null;
}
