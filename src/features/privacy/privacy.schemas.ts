import { z } from 'zod';
import { EMAIL_PATTERN } from '../../lib/email.ts';
import { MAX_PASSWORD_LENGTH } from '../accounts/accounts.messages.ts';
import { email } from '../accounts/accounts.schemas.ts';
import { PRIVACY_MESSAGES as M } from './privacy.messages.ts';

const textOrEmpty = (v: unknown) => (typeof v === 'string' ? v : '');
const password = z.preprocess(textOrEmpty, z.string().min(1, M.passwordNeeded).max(MAX_PASSWORD_LENGTH, M.passwordWrong));

/** Download my data: the password again. */
export const exportInput = z.object({ password });

/** Delete my account: the password again, and the box ticked. */
export const erasureInput = z.object({
  password,
  confirm: z.preprocess((v) => v === 'yes', z.literal(true, { error: M.confirmNeeded })),
});

/** The operator's lookup of a parent who wrote in. */
export const accountLookupInput = z.object({
  email: email.pipe(
    z.string().min(1, 'Please enter the email address of the account').regex(EMAIL_PATTERN, 'Please enter a valid email address'),
  ),
});

/** The operator's erasure: the address typed again, so the wrong account is never erased by a slip. */
export const operatorErasureInput = z.object({ email, confirmEmail: email });
