import { z } from 'zod';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../../lib/email.ts';
import { ACCOUNT_MESSAGES } from '../accounts/accounts.messages.ts';
import { email } from '../accounts/accounts.schemas.ts';

// Words a parent reads on the book page's "Email me when it's back" form and the pages it leads to.
export const BACK_IN_STOCK_MESSAGES = {
  requested: {
    /** Names the book, so the answer is read right after the page it came from has gone. */
    title: (book: string) => `We'll email you when ${book} is back`,
    // The same words whether or not the address had already asked: the page tells nobody what an address did.
    text: 'As soon as copies arrive, we will send one email to that address with a link to the book. Each email has a link to cancel.',
  },
  /** The heading of the form's summary when a request is not taken, whatever the reason. */
  refused: 'Could not sign you up for the email',
  inStock: 'Good news: this book is in stock now, so you can add it to your cart straight away.',
  tooMany: 'Too many requests for now. Please wait a little while and try again.',
  badLink: 'This link is not complete. Please open it again from the email we sent.',
  unsubscribed: {
    title: 'You will not get this email',
    text: 'We have taken your address off the list for this book. You can ask again on its page at any time.',
  },
} as const;

/**
 * Requests taken per inbox each day (every spelling of an address that reaches it counts, see
 * src/lib/email.ts) and per client address each hour: each one may mail that address, which
 * nobody has verified, so nobody can make the shop mail a stranger more than a few times.
 */
export const BACK_IN_STOCK_LIMITS = {
  perAddress: 5,
  addressWindowMs: 24 * 60 * 60_000,
  perClient: 20,
  clientWindowMs: 60 * 60_000,
} as const;

/** The sign-up rule for an address (lowercased, at most MAX_EMAIL_LENGTH characters), then the sign-up form's pattern. */
export const notifyRequest = z.object({
  email: email.pipe(z.string().regex(EMAIL_PATTERN, ACCOUNT_MESSAGES.badEmail)),
});

export const unsubscribeRequest = z.object({
  token: z.string({ message: BACK_IN_STOCK_MESSAGES.badLink }).max(MAX_EMAIL_LENGTH * 2, BACK_IN_STOCK_MESSAGES.badLink),
});
