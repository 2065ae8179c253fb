import type { Db } from '../../db.ts';
import { toDate } from '../../lib/dates.ts';
import { AccountToken } from '../../models/AccountToken.ts';
import { User } from '../../models/User.ts';
import { BadRequest, Conflict, HttpError, TooManyRequests, Unauthorized } from '../../web/errors.ts';
import type { Counter } from '../../web/throttle.ts';
import type { Mailer } from '../mail/mailer.ts';
import { ACCOUNT_MESSAGES as M, FAILED_LOGIN_MARKER, FAILED_LOGIN_URL } from './accounts.messages.ts';
import type { PasswordChangeInput, SignupInput } from './accounts.schemas.ts';
import { LOCKOUT, mayMailAgain } from './lockout.rules.ts';
import { NO_PASSWORD, hashPassword, randomSecret, secretHash, temporaryPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';

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
}

export interface SignIn {
  user: UserDto;
  /** A temporary password was used: a new one must be chosen before anything else. */
  mustChangePassword: boolean;
}

export function toUserDto(user: User): UserDto {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    createdAt: toDate(user.createdAt).toISOString(),
    isAuthenticated: true,
  };
}

export function createAccountsService({ db, mailer, counter, publicUrl }: { db: Db; mailer: Mailer; counter: Counter; publicUrl: string }) {
  const loginFailed = () => new Unauthorized(M.loginFailed.text);
  const accountSecured = () => new HttpError(401, FAILED_LOGIN_MARKER, { redirectUrl: FAILED_LOGIN_URL });

  async function findByEmail(email: string): Promise<User | undefined> {
    return User.query(db).findOne({ email: email.toLowerCase() });
  }

  /** Five failures in a row: the account's password is replaced by a temporary one, mailed. */
  async function secureAccount(user: User): Promise<void> {
    const now = new Date();
    if (!mayMailAgain(user.temporaryPasswordSentAt, now)) return;
    const secret = temporaryPassword();
    await db.transaction(async (trx) => {
      await User.query(trx).findById(user.id).patch({ passwordHash: NO_PASSWORD, mustChangePassword: false, temporaryPasswordSentAt: now });
      await AccountToken.query(trx).delete().where({ userId: user.id, purpose: 'temporary-password' });
      await AccountToken.query(trx).insert({
        userId: user.id,
        purpose: 'temporary-password',
        tokenHash: secretHash(secret),
        expiresAt: new Date(now.getTime() + LOCKOUT.temporaryPasswordLifetimeMs),
      });
      await mailer.enqueue(trx, {
        to: user.email,
        template: 'temporary-password',
        data: { firstName: user.firstName, temporaryPassword: secret, loginUrl: `${publicUrl}/login`, expiresInHours: LOCKOUT.temporaryPasswordLifetimeMs / 3_600_000 },
      });
    });
    mailer.kick();
  }

  /** A temporary password works once, before it expires, and then asks for a new password. */
  async function useTemporaryPassword(user: User, password: string): Promise<boolean> {
    const token = await AccountToken.query(db).findOne({ userId: user.id, purpose: 'temporary-password', tokenHash: secretHash(password) });
    if (!token || token.usedAt) return false;
    if (toDate(token.expiresAt) <= new Date()) throw new Unauthorized(M.temporaryExpired);
    const claimed = await db.transaction(async (trx) => {
      const marked = await AccountToken.query(trx).patch({ usedAt: new Date() }).where({ id: token.id }).whereNull('usedAt');
      if (marked === 1) await User.query(trx).findById(user.id).patch({ mustChangePassword: true });
      return marked === 1;
    });
    return claimed;
  }

  return {
    async findSessionUser(userId: number): Promise<SessionUser | undefined> {
      const user = await User.query(db).findById(userId).select('id', 'firstName', 'role', 'mustChangePassword');
      return user && { id: user.id, firstName: user.firstName, role: user.role, mustChangePassword: Boolean(user.mustChangePassword) };
    },

    async getUser(userId: number): Promise<UserDto | undefined> {
      const user = await User.query(db).findById(userId);
      return user && toUserDto(user);
    },

    /** The sign-up form's live check; throttled per client so it cannot list our customers. */
    async emailExists(email: string, client: string): Promise<boolean> {
      if ((await counter.hit(`check-email:${client}`, LOCKOUT.checkEmailWindowMs)) > LOCKOUT.checkEmailRequests) {
        throw new TooManyRequests(M.tooManyAttempts);
      }
      return Boolean(await findByEmail(email));
    },

    async signup(input: SignupInput): Promise<UserDto> {
      if (await findByEmail(input.email)) throw new Conflict(M.emailTaken);
      const passwordHash = await hashPassword(input.password);
      const user = await db
        .transaction(async (trx) => {
          const created = await User.query(trx).insertAndFetch({ email: input.email, passwordHash, firstName: input.firstName, lastName: input.lastName });
          await mailer.enqueue(trx, { to: created.email, template: 'welcome', data: { firstName: created.firstName, shopUrl: `${publicUrl}/books` } });
          return created;
        })
        .catch(async (err: unknown) => {
          // Two sign-ups with one address at once: the unique index decides.
          if (await findByEmail(input.email)) throw new Conflict(M.emailTaken);
          throw err;
        });
      mailer.kick();
      return toUserDto(user);
    },

    /**
     * Checks a sign-in. An unknown email and a wrong password get the same answer in about
     * the same time. Failures are throttled per client address (429) and counted per account;
     * the fifth in a row secures the account (spec: the failed-login screen).
     */
    async signIn({ email, password, client }: { email: string; password: string; client: string }): Promise<SignIn> {
      const clientKey = `login-client:${client}`;
      const accountKey = `login-account:${email.toLowerCase()}`;
      if ((await counter.peek(clientKey)) >= LOCKOUT.clientFailures) throw new TooManyRequests(M.tooManyAttempts);

      const user = await findByEmail(email);
      if (user && (await verifyPassword(user.passwordHash, password))) {
        await counter.reset(accountKey);
        return { user: toUserDto(user), mustChangePassword: Boolean(user.mustChangePassword) };
      }
      if (!user) await verifyAgainstDummy(password);
      if (user && (await useTemporaryPassword(user, password))) {
        await counter.reset(accountKey);
        return { user: toUserDto(user), mustChangePassword: true };
      }

      await counter.hit(clientKey, LOCKOUT.clientWindowMs);
      const failures = await counter.hit(accountKey, LOCKOUT.accountWindowMs);
      if (failures < LOCKOUT.accountFailures) throw loginFailed();
      await counter.reset(accountKey);
      if (user) await secureAccount(user);
      throw accountSecured();
    },

    /** Always the same answer; a link is mailed at most once per account per 30 minutes. */
    async requestReset({ email, client }: { email: string; client: string }): Promise<void> {
      if ((await counter.hit(`reset-client:${client}`, LOCKOUT.resetClientWindowMs)) > LOCKOUT.resetClientRequests) {
        throw new TooManyRequests(M.tooManyAttempts);
      }
      const user = await findByEmail(email);
      const now = new Date();
      if (!user || !mayMailAgain(user.resetLinkSentAt, now)) return;
      const secret = randomSecret();
      await db.transaction(async (trx) => {
        const claimed = await User.query(trx).findById(user.id).patch({ resetLinkSentAt: now }).where((q) => q.whereNull('resetLinkSentAt').orWhere('resetLinkSentAt', '<=', new Date(now.getTime() - LOCKOUT.mailIntervalMs)));
        if (!claimed) return; // another request just sent one
        await AccountToken.query(trx).insert({ userId: user.id, purpose: 'reset-link', tokenHash: secretHash(secret), expiresAt: new Date(now.getTime() + LOCKOUT.resetLinkLifetimeMs) });
        await mailer.enqueue(trx, {
          to: user.email,
          template: 'reset-link',
          data: { firstName: user.firstName, resetUrl: `${publicUrl}/reset-password/${secret}`, expiresInMinutes: LOCKOUT.resetLinkLifetimeMs / 60_000 },
        });
      });
      mailer.kick();
    },

    async isResetLinkValid(secret: string): Promise<boolean> {
      const token = await AccountToken.query(db).findOne({ purpose: 'reset-link', tokenHash: secretHash(secret) });
      return Boolean(token && !token.usedAt && toDate(token.expiresAt) > new Date());
    },

    /** A reset link sets a new password once; it signs the parent in. */
    async resetWithLink(secret: string, newPassword: string): Promise<UserDto> {
      const token = await AccountToken.query(db).findOne({ purpose: 'reset-link', tokenHash: secretHash(secret) });
      if (!token || token.usedAt || toDate(token.expiresAt) <= new Date()) throw new BadRequest(M.resetLinkInvalid);
      const passwordHash = await hashPassword(newPassword);
      const user = await db.transaction(async (trx) => {
        const marked = await AccountToken.query(trx).patch({ usedAt: new Date() }).where({ id: token.id }).whereNull('usedAt');
        if (marked !== 1) throw new BadRequest(M.resetLinkInvalid);
        await AccountToken.query(trx).delete().where({ userId: token.userId, purpose: 'temporary-password' });
        const updated = await User.query(trx).patchAndFetchById(token.userId, { passwordHash, mustChangePassword: false });
        await mailer.enqueue(trx, { to: updated.email, template: 'password-changed', data: { firstName: updated.firstName, contactUrl: `${publicUrl}/contact` } });
        return updated;
      });
      mailer.kick();
      await counter.reset(`login-account:${user.email}`);
      return toUserDto(user);
    },

    async updateProfile(userId: number, input: { firstName: string; lastName: string }): Promise<UserDto> {
      return toUserDto(await User.query(db).patchAndFetchById(userId, input));
    },

    /** The current password is needed, except right after signing in with a temporary one. */
    async changePassword(userId: number, input: PasswordChangeInput): Promise<void> {
      const user = await User.query(db).findById(userId);
      if (!user) throw new Unauthorized();
      if (!user.mustChangePassword && !(await verifyPassword(user.passwordHash, input.currentPassword ?? ''))) {
        throw new BadRequest(M.currentPasswordWrong);
      }
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction(async (trx) => {
        await User.query(trx).findById(userId).patch({ passwordHash, mustChangePassword: false });
        await mailer.enqueue(trx, { to: user.email, template: 'password-changed', data: { firstName: user.firstName, contactUrl: `${publicUrl}/contact` } });
      });
      mailer.kick();
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
