import { z } from 'zod';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../../lib/email.ts';
import { ACCOUNT_MESSAGES as M, FIELD_MESSAGES as F, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './accounts.messages.ts';

// Fields arrive from HTML forms and JSON alike; a missing one, or one that is not text (a
// field sent twice arrives as a list), reads as empty, so the rules below answer with the
// shop's own words, checked in a fixed order, never with a parser's
// (docs/architecture.md, "Words parents see").
const textOrEmpty = (v: unknown) => (typeof v === 'string' ? v : '');
const text = (max: number, tooLong = `Please keep this under ${max} characters.`) =>
  z.preprocess(textOrEmpty, z.string().trim().max(max, tooLong));
const secret = z.preprocess(
  textOrEmpty,
  z.string().max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters long`),
);
// Checked again after lowercasing: some letters grow ('İ' becomes two characters), and the
// column, the throttles and the mail headers all expect at most MAX_EMAIL_LENGTH.
export const email = text(MAX_EMAIL_LENGTH, M.emailTooLong)
  .transform((v) => v.toLowerCase())
  .pipe(z.string().max(MAX_EMAIL_LENGTH, M.emailTooLong));

/**
 * Every broken rule as its own issue on its field, in the spec's order: the first one is what
 * the API answers (its `summary`, the spec's words for a group of missing fields, when it has
 * one), and a form lists them all (src/web/form-problems.ts).
 */
type Rule = [broken: boolean, field: string, message: string, summary?: string];
function report(ctx: z.RefinementCtx, rules: Rule[]): void {
  for (const [broken, field, message, summary] of rules) {
    if (broken) ctx.addIssue({ code: 'custom', path: [field], message, ...(summary ? { params: { summary } } : {}) });
  }
}

export const loginInput = z.object({ email, password: secret }).superRefine((v, ctx) =>
  report(ctx, [
    [!v.email, 'email', F.email, M.missingLogin.text],
    [!v.password, 'password', F.password, M.missingLogin.text],
  ]),
);

export const signupInput = z
  .object({ email, password: secret, confirmPassword: secret.optional(), firstName: text(100), lastName: text(100) })
  .superRefine((v, ctx) =>
    report(ctx, [
      [!v.firstName, 'firstName', F.firstName, M.signupMissing],
      [!v.email, 'email', F.email, M.signupMissing],
      [!v.password, 'password', F.choosePassword, M.signupMissing],
      [Boolean(v.email) && !EMAIL_PATTERN.test(v.email), 'email', M.badEmail],
      [Boolean(v.password) && v.confirmPassword !== undefined && v.confirmPassword !== v.password, 'confirmPassword', M.passwordsDiffer],
      [Boolean(v.password) && v.password.length < MIN_PASSWORD_LENGTH, 'password', M.passwordTooShort],
    ]),
  );

export const resetRequestInput = z.object({ email }).superRefine((v, ctx) => report(ctx, [[!v.email, 'email', M.resetMissing]]));

export const checkEmailInput = z
  .object({ email })
  .superRefine((v, ctx) => report(ctx, [[!EMAIL_PATTERN.test(v.email), 'email', M.badEmail]]));

export const profileInput = z
  .object({ firstName: text(100), lastName: text(100) })
  .superRefine((v, ctx) => report(ctx, [[!v.firstName, 'firstName', M.firstNameRequired]]));

/**
 * A code of the account's second factor (a TOTP code or a recovery code), asked for when a
 * password changes; empty when none was sent, and the service says whether one was needed.
 */
const secondFactorCode = text(40, M.codeTooLong);

/** Change password; currentPassword may be absent only when a temporary password was just used. */
export const passwordChangeInput = z
  .object({ currentPassword: secret.optional(), newPassword: secret, confirmPassword: secret.optional(), code: secondFactorCode })
  .superRefine((v, ctx) =>
    report(ctx, [
      [v.currentPassword === '', 'currentPassword', F.currentPassword, M.missingLogin.text],
      [!v.newPassword, 'newPassword', F.newPassword, M.missingLogin.text],
      [v.confirmPassword === '' && Boolean(v.newPassword), 'confirmPassword', F.confirmNewPassword, M.missingLogin.text],
      [Boolean(v.confirmPassword) && v.confirmPassword !== v.newPassword, 'confirmPassword', M.newPasswordsDiffer],
      [Boolean(v.newPassword) && v.newPassword.length < MIN_PASSWORD_LENGTH, 'newPassword', M.passwordTooShort],
    ]),
  );

export type SignupInput = z.infer<typeof signupInput>;
export type PasswordChangeInput = z.infer<typeof passwordChangeInput>;
