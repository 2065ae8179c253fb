import { z } from 'zod';
import { EMAIL_PATTERN } from '../../lib/email.ts';

export const CONTACT_MESSAGES = {
  incomplete: { title: 'Please Complete All Fields', text: 'All fields are required to submit your contact request.' },
  badEmail: { title: 'Invalid Email Address', text: 'Please enter a valid email address.' },
  failed: { title: 'Failed to Send Message', text: 'There was an error sending your message. Please try again.' },
  tooMany: {
    title: 'Please Try Again Later',
    text: 'Too many messages from your network. Please wait an hour and try again, or write to us by email.',
  },
} as const;

/** Messages taken per client address and per session each hour (each one mails an acknowledgement). */
export const CONTACT_LIMITS = { perClient: 10, perSession: 3, windowMs: 60 * 60_000 } as const;

/**
 * Mail the form causes, capped by who receives it: the address the form names (nobody has
 * verified it, so many clients together must not flood it) and the shop's own notifications
 * (every message waits in the admin inbox anyway, so one alert per window is enough).
 */
export const CONTACT_MAIL_LIMITS = {
  acknowledgementsPerRecipient: 3,
  acknowledgementWindowMs: 60 * 60_000,
  shopNotifications: 1,
  shopNotificationWindowMs: 10 * 60_000,
} as const;

const required = (max: number) =>
  z
    .string({ message: CONTACT_MESSAGES.incomplete.text })
    .trim()
    .min(1, CONTACT_MESSAGES.incomplete.text)
    .max(max, `Please keep this field under ${max} characters.`);

export const contactMessage = z.object({
  firstName: required(100),
  lastName: required(100),
  email: required(254).pipe(z.string().regex(EMAIL_PATTERN, CONTACT_MESSAGES.badEmail.text)),
  currentMember: z.enum(['yes', 'no'], { message: CONTACT_MESSAGES.incomplete.text }),
  subject: required(200),
  description: required(5000),
});

export type ContactInput = z.infer<typeof contactMessage>;
