import { z } from 'zod';
import { EMAIL_PATTERN } from '../../lib/email.ts';
import { ACCOUNT_MESSAGES as M, MAX_EMAIL_LENGTH, MIN_PASSWORD_LENGTH } from './accounts.messages.ts';

// Fields arrive from HTML forms and JSON alike; a missing one, or one that is not text (a
// field sent twice arrives as a list), reads as empty, so the rules below answer with the
// spec's own words, checked in the spec's order, never with a parser's.
const textOrEmpty = (v: unknown) => (typeof v === 'string' ? v : '');
const text = (max: number, tooLong = `Please keep this under ${max} characters.`) =>
  z.preprocess(textOrEmpty, z.string().trim().max(max, tooLong));
const secret = z.preprocess(textOrEmpty, z.string().max(200, 'Password must be at most 200 characters long'));
// Checked again after lowercasing: some letters grow ('İ' becomes two characters), and the
// column, the throttles and the mail headers all expect at most 254.
export const email = text(MAX_EMAIL_LENGTH, M.emailTooLong)
  .transform((v) => v.toLowerCase())
  .pipe(z.string().max(MAX_EMAIL_LENGTH, M.emailTooLong));

function first(ctx: z.RefinementCtx, rules: Array<[boolean, string]>): void {
  const broken = rules.find(([bad]) => bad);
  if (broken) ctx.addIssue({ code: 'custom', message: broken[1] });
}

export const loginInput = z
  .object({ email, password: secret })
  .superRefine((v, ctx) => first(ctx, [[!v.email || !v.password, M.missingLogin.text]]));

export const signupInput = z
  .object({ email, password: secret, confirmPassword: secret.optional(), firstName: text(100), lastName: text(100) })
  .superRefine((v, ctx) =>
    first(ctx, [
      [!v.email || !v.password || !v.firstName, M.signupMissing],
      [!EMAIL_PATTERN.test(v.email), M.badEmail],
      [v.confirmPassword !== undefined && v.confirmPassword !== v.password, M.passwordsDiffer],
      [v.password.length < MIN_PASSWORD_LENGTH, M.passwordTooShort],
    ]),
  );

export const resetRequestInput = z.object({ email }).superRefine((v, ctx) => first(ctx, [[!v.email, M.resetMissing]]));

export const checkEmailInput = z.object({ email }).superRefine((v, ctx) => first(ctx, [[!EMAIL_PATTERN.test(v.email), M.badEmail]]));

export const profileInput = z
  .object({ firstName: text(100), lastName: text(100) })
  .superRefine((v, ctx) => first(ctx, [[!v.firstName, M.firstNameRequired]]));

/** Change password; currentPassword may be absent only when a temporary password was just used. */
export const passwordChangeInput = z
  .object({ currentPassword: secret.optional(), newPassword: secret, confirmPassword: secret.optional() })
  .superRefine((v, ctx) =>
    first(ctx, [
      [!v.newPassword, M.missingLogin.text],
      [v.confirmPassword !== undefined && v.confirmPassword !== v.newPassword, M.newPasswordsDiffer],
      [v.newPassword.length < MIN_PASSWORD_LENGTH, M.passwordTooShort],
    ]),
  );

export type SignupInput = z.infer<typeof signupInput>;
export type PasswordChangeInput = z.infer<typeof passwordChangeInput>;
