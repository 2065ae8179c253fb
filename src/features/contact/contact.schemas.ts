import { z } from 'zod';
import { EMAIL_PATTERN } from '../../lib/email.ts';

export const CONTACT_MESSAGES = {
  incomplete: { title: 'Please Complete All Fields', text: 'All fields are required to submit your contact request.' },
  badEmail: { title: 'Invalid Email Address', text: 'Please enter a valid email address.' },
} as const;

const required = (max: number) =>
  z.string({ message: CONTACT_MESSAGES.incomplete.text })
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
