import { z } from 'zod';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../../lib/email.ts';

export const CONTACT_MESSAGES = {
  incomplete: { title: 'Please Complete All Fields', text: 'All fields are required to submit your contact request.' },
  badEmail: { title: 'Invalid Email Address', text: 'Please enter a valid email address.' },
  failed: { title: 'Failed to Send Message', text: 'There was an error sending your message. Please try again.' },
  tooMany: {
    title: 'Failed to Send Message',
    text: 'Too many messages from your network. Please wait an hour and try again, or write to us by email.',
  },
} as const;

/** Messages taken per client address and per session each hour (each one mails an acknowledgement). */
export const CONTACT_LIMITS = { perClient: 10, perSession: 3, windowMs: 60 * 60_000 } as const;

/**
 * Mail the form causes, capped by who receives it: the inbox the form's address reaches, however
 * it is spelt (nobody has verified it, so many clients together must not flood it; its domain
 * has a cap too, src/features/mail/recipient-caps.ts) and the shop's own notifications
 * (every message waits in the admin inbox anyway, so one alert per window is enough).
 */
export const CONTACT_MAIL_LIMITS = {
  acknowledgementsPerRecipient: 3,
  acknowledgementWindowMs: 60 * 60_000,
  shopNotifications: 1,
  shopNotificationWindowMs: 10 * 60_000,
} as const;

/** What each field says beside itself when the form is refused (src/web/form-problems.ts). */
export const CONTACT_FIELD_MESSAGES = {
  firstName: 'Please enter your first name.',
  lastName: 'Please enter your last name.',
  email: 'Please enter your email address.',
  currentMember: 'Please choose Yes or No.',
  subject: 'Please enter a subject.',
  description: 'Please write your message.',
} as const;

type ContactField = keyof typeof CONTACT_FIELD_MESSAGES;
const CONTACT_FIELDS = Object.keys(CONTACT_FIELD_MESSAGES) as ContactField[];

// A missing field, or one that is not text, reads as empty, so every problem is found in one
// pass and told beside its field; the API answers with the first, in the spec's words.
const textOrEmpty = (v: unknown) => (typeof v === 'string' ? v : '');
const text = (max: number) => z.preprocess(textOrEmpty, z.string().trim().max(max, `Please keep this field under ${max} characters.`));

export const contactMessage = z
  .object({
    firstName: text(100),
    lastName: text(100),
    email: text(MAX_EMAIL_LENGTH),
    currentMember: z.preprocess(textOrEmpty, z.string()),
    subject: text(200),
    description: text(5000),
  })
  .superRefine((v, ctx) => {
    const summary = { summary: CONTACT_MESSAGES.incomplete.text };
    for (const field of CONTACT_FIELDS) {
      const missing = field === 'currentMember' ? v.currentMember !== 'yes' && v.currentMember !== 'no' : !v[field];
      if (missing) ctx.addIssue({ code: 'custom', path: [field], message: CONTACT_FIELD_MESSAGES[field], params: summary });
    }
    if (v.email && !EMAIL_PATTERN.test(v.email)) ctx.addIssue({ code: 'custom', path: ['email'], message: CONTACT_MESSAGES.badEmail.text });
  })
  .transform((v) => ({ ...v, currentMember: v.currentMember as 'yes' | 'no' }));

export type ContactInput = z.infer<typeof contactMessage>;
