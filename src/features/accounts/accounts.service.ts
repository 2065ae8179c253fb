import { raw } from 'objection';
import type { Db } from '../../db.ts';
import type { Deferred } from '../../lib/deferred.ts';
import { User } from '../../models/User.ts';
import { BadRequest, Conflict, HttpError, TooManyRequests, Unauthorized } from '../../web/errors.ts';
import type { Limits } from '../../web/throttle.ts';
import { greetingName } from '../mail/greeting.ts';
import type { Mailer } from '../mail/mailer.ts';
import { accountLimiters } from './accounts.limits.ts';
import { ACCOUNT_MESSAGES as M } from './accounts.messages.ts';
import type { PasswordChangeInput, SignupInput } from './accounts.schemas.ts';
import { createLockout } from './lockout.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { createResetLinks } from './reset-links.ts';
import { saveAddress, savedAddressOf } from './saved-address.ts';
import type { ShippingInfo } from './shipping-info.ts';

export interface UserDto {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  createdAt: string;
  isAuthenticated: true;
}

export interface SessionUser {
  id: number;
  firstName: string;
  role: User['role'];
  mustChangePassword: boolean;
  sessionVersion: number;
  /** The account has a second factor: the password alone is half a sign-in (second-step.ts). */
  secondFactor: boolean;
}

export interface SignIn {
  user: UserDto;
  /** A temporary password was used: a new one must be chosen before anything else. */
  mustChangePassword: boolean;
  /** Stamped into the new session; a later password change ends sessions with an older one. */
  sessionVersion: number;
  /** An operator goes on to the second factor before reaching /admin. */
  operator: boolean;
  /** The account has a second factor: this sign-in is not finished until its code is given. */
  secondFactor: boolean;
}

/**
 * Checks a code of an account's second factor (admin/access/two-factor.ts): a current TOTP
 * code or an unused recovery code, each accepted once. Throws a 4xx when it is not right.
 */
export interface SecondFactorCheck {
  verify(userId: number, code: string): Promise<unknown>;
}

/** An account with a confirmed authenticator; until it confirms one it has no second factor. */
export function hasSecondFactor(user: Pick<User, 'totpSecret' | 'totpEnrolledAt'>): boolean {
  return Boolean(user.totpSecret && user.totpEnrolledAt);
}

export function toUserDto(user: User): UserDto {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    createdAt: user.createdAt.toISOString(),
    isAuthenticated: true,
  };
}

export function createAccountsService({
  db,
  mailer,
  limits,
  later,
  publicUrl,
  secondFactor,
}: {
  db: Db;
  mailer: Mailer;
  limits: Limits;
  later: Deferred;
  publicUrl: string;
  secondFactor: SecondFactorCheck;
}) {
  const limiters = accountLimiters(limits);
  const lockout = createLockout({ db, mailer, limiters, publicUrl });
  const resetLinks = createResetLinks({ db, mailer, limiters, later, publicUrl });

  async function findByEmail(email: string): Promise<User | undefined> {
    return User.query(db).findOne({ email: email.toLowerCase() });
  }

  /**
   * Changing the password of an account with a second factor needs a code of it, in the same
   * request: the password alone (or a mailed link) is not enough. Accounts without one pass.
   */
  async function confirmSecondFactor(user: Pick<User, 'id' | 'totpSecret' | 'totpEnrolledAt'>, code: string | undefined): Promise<void> {
    if (!hasSecondFactor(user)) return;
    if (!code) throw new BadRequest(M.codeNeeded, { field: 'code' });
    try {
      await secondFactor.verify(user.id, code);
    } catch (err) {
      // A wrong or used code is the field's problem; too many tries (429) are the form's.
      if (err instanceof HttpError && err.status === 400) throw new BadRequest(err.message, { field: 'code' });
      throw err;
    }
  }

  return {
    async findSessionUser(userId: number): Promise<SessionUser | undefined> {
      const user = await User.query(db)
        .findById(userId)
        .select('id', 'firstName', 'role', 'mustChangePassword', 'sessionVersion', 'totpSecret', 'totpEnrolledAt');
      return (
        user && {
          id: user.id,
          firstName: user.firstName,
          role: user.role,
          mustChangePassword: Boolean(user.mustChangePassword),
          sessionVersion: Number(user.sessionVersion),
          secondFactor: hasSecondFactor(user),
        }
      );
    },

    /** An operator's email and second-factor enrolment, for the two-factor step. */
    async getOperatorFactor(userId: number): Promise<Pick<User, 'email' | 'totpSecret' | 'totpEnrolledAt'> | undefined> {
      return User.query(db).findById(userId).where({ role: 'operator' }).select('email', 'totpSecret', 'totpEnrolledAt');
    },

    async getUser(userId: number): Promise<UserDto | undefined> {
      const user = await User.query(db).findById(userId);
      return user && toUserDto(user);
    },

    /** The sign-up form's live check; throttled per client so it cannot list our customers. */
    async emailExists(email: string, client: string): Promise<boolean> {
      if (!(await limiters.checkEmailByClient.reserve(client)).allowed) throw new TooManyRequests(M.tooManyAttempts);
      return Boolean(await findByEmail(email));
    },

    /**
     * Each sign-up mails an address nobody has verified, so sign-ups are limited per client
     * address, and welcomes per inbox and per domain (src/features/mail/recipient-caps.ts).
     */
    async signup(input: SignupInput, client: string): Promise<SignIn> {
      if (!(await limiters.signupByClient.reserve(client)).allowed) throw new TooManyRequests(M.tooManySignups);
      if (await findByEmail(input.email)) throw new Conflict(M.emailTaken, { field: 'email' });
      const passwordHash = await hashPassword(input.password);
      // Reserved before anything is written; a spent cap holds back only the welcome.
      const welcome = await limiters.welcomeByRecipient.mayMail(input.email);
      const user = await db
        .transaction(async (trx) => {
          const created = await User.query(trx).insertAndFetch({
            email: input.email,
            passwordHash,
            firstName: input.firstName,
            lastName: input.lastName,
          });
          if (welcome) {
            await mailer.enqueue(trx, { to: created.email, template: 'welcome', data: { firstName: greetingName(created.firstName) } });
          }
          return created;
        })
        .catch(async (err: unknown) => {
          // Two sign-ups with one address at once: the unique index decides.
          if (await findByEmail(input.email)) throw new Conflict(M.emailTaken, { field: 'email' });
          throw err;
        });
      mailer.kick();
      return {
        user: toUserDto(user),
        mustChangePassword: false,
        sessionVersion: Number(user.sessionVersion ?? 0),
        operator: false,
        secondFactor: false,
      };
    },

    /**
     * Checks a sign-in. An unknown email and a wrong password get the same answer in about
     * the same time. Attempts are limited per client address (429) and per account; the
     * fifth failure in a row secures the account and sends the parent to the failed-login screen
     * (docs/architecture.md, "Sign-in, sessions and lockout").
     */
    async signIn({ email, password, client }: { email: string; password: string; client: string }): Promise<SignIn> {
      const { user, mustChangePassword } = await lockout.signIn({ email, password, client, findByEmail });
      return {
        user: toUserDto(user),
        mustChangePassword,
        sessionVersion: Number(user.sessionVersion),
        operator: user.role === 'operator',
        secondFactor: hasSecondFactor(user),
      };
    },

    requestReset: resetLinks.requestReset,
    isResetLinkValid: resetLinks.isResetLinkValid,

    /** Whether a reset link's account needs a code of its second factor to choose a new password. */
    async resetLinkAsksForCode(secret: string): Promise<boolean> {
      const userId = await resetLinks.linkAccount(secret);
      const user = userId === undefined ? undefined : await User.query(db).findById(userId).select('totpSecret', 'totpEnrolledAt');
      return Boolean(user && hasSecondFactor(user));
    },

    /**
     * A reset link sets a new password once; it signs the parent in, and only there. For an
     * account with a second factor the link needs a code too, and then signs in past it
     * (`secondFactorPassed`).
     */
    async resetWithLink(secret: string, newPassword: string, code?: string): Promise<SignIn & { secondFactorPassed: boolean }> {
      let secondFactorPassed = false;
      const user = await resetLinks.resetWithLink(secret, newPassword, async (userId) => {
        const account = await User.query(db).findById(userId).select('id', 'totpSecret', 'totpEnrolledAt');
        if (!account) return;
        await confirmSecondFactor(account, code);
        secondFactorPassed = hasSecondFactor(account);
      });
      return {
        user: toUserDto(user),
        mustChangePassword: false,
        sessionVersion: Number(user.sessionVersion),
        operator: user.role === 'operator',
        secondFactor: hasSecondFactor(user),
        secondFactorPassed,
      };
    },

    /** The address the signed-in checkout offers; null until an order is paid or one is saved. */
    savedAddress(userId: number): Promise<ShippingInfo | null> {
      return savedAddressOf(db, userId);
    },

    saveAddress(userId: number, address: ShippingInfo): Promise<void> {
      return saveAddress(db, userId, address);
    },

    async updateProfile(userId: number, input: { firstName: string; lastName: string }): Promise<UserDto> {
      return toUserDto(await User.query(db).patchAndFetchById(userId, input));
    },

    /**
     * The current password is needed, except right after signing in with a temporary one, and
     * for an account with a second factor a code of it as well (checked last, so that a wrong
     * password does not use the code up). Every other session of the account ends; the
     * returned version keeps the caller's alive.
     */
    async changePassword(userId: number, input: PasswordChangeInput): Promise<number> {
      const user = await User.query(db).findById(userId);
      if (!user) throw new Unauthorized();
      // Said before the password is hashed: a missing code needs no argon2 to tell.
      if (hasSecondFactor(user) && !input.code) throw new BadRequest(M.codeNeeded, { field: 'code' });
      if (!user.mustChangePassword && !(await verifyPassword(user.passwordHash, input.currentPassword ?? ''))) {
        throw new BadRequest(M.currentPasswordWrong, { field: 'currentPassword' });
      }
      await confirmSecondFactor(user, input.code);
      const passwordHash = await hashPassword(input.newPassword);
      const sessionVersion = await db.transaction(async (trx) => {
        await User.query(trx)
          .findById(userId)
          .patch({ passwordHash, mustChangePassword: false, sessionVersion: raw('session_version + 1') });
        await mailer.enqueue(trx, {
          to: user.email,
          template: 'password-changed',
          data: { firstName: user.firstName, contactUrl: `${publicUrl}/contact` },
        });
        const updated = await User.query(trx).findById(userId).select('sessionVersion').throwIfNotFound();
        return Number(updated.sessionVersion);
      });
      mailer.kick();
      return sessionVersion;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
