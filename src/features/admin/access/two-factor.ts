import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../../db.ts';
import { RecoveryCode } from '../../../models/RecoveryCode.ts';
import { User } from '../../../models/User.ts';
import { BadRequest, TooManyRequests } from '../../../web/errors.ts';
import type { Limits } from '../../../web/throttle.ts';

// An operator's second factor: a TOTP authenticator (RFC 6238: SHA-1, 6 digits, 30 s), or one
// of ten single-use recovery codes. A code is accepted once: the time step it belongs to is
// remembered and an equal or older step is refused.

const ISSUER = 'Little Lantern Books';
export const RECOVERY_CODE_COUNT = 10;
/** Codes one step either side of now are accepted: a phone's clock drifts. */
const WINDOW = 1;
/** Wrong codes allowed per operator per window; a 6-digit code cannot be guessed in five tries. */
export const TWO_FACTOR_LIMIT = { points: 5, windowMs: 15 * 60_000 };

export const TWO_FACTOR_MESSAGES = {
  wrongCode: 'That code is not right. Enter the 6-digit code your authenticator app shows now, or a recovery code.',
  usedCode: 'That code has already been used. Wait for the next one.',
  tooMany: 'Too many wrong codes. Please wait 15 minutes and try again.',
} as const;

function totpFor(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

const hashCode = (code: string) => createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');

/** Recovery codes are shown as "abcd-efgh-ijkl"; case and dashes do not matter when typed. */
function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

export function createTwoFactor({ db, limits }: { db: Db; limits: Limits }) {
  const wrongCodes = limits('two-factor', TWO_FACTOR_LIMIT);

  /** The TOTP step a code belongs to, or null when it matches none within the window. */
  function matchingStep(secret: string, code: string, now: number): number | null {
    const delta = totpFor(secret).validate({ token: code, timestamp: now, window: WINDOW });
    return delta === null ? null : Math.floor(now / 30_000) + delta;
  }

  /** Takes a step for this operator unless it (or a later one) was already used. */
  async function claimStep(userId: number, step: number): Promise<boolean> {
    const claimed = await User.query(db)
      .findById(userId)
      .patch({ totpLastStep: step })
      .where((q) => q.whereNull('totpLastStep').orWhere('totpLastStep', '<', step));
    return claimed === 1;
  }

  async function useRecoveryCode(userId: number, code: string): Promise<boolean> {
    const used = await RecoveryCode.query(db)
      .patch({ usedAt: new Date() })
      .where({ userId, codeHash: hashCode(code) })
      .whereNull('usedAt');
    return used === 1;
  }

  return {
    newSecret(): string {
      return new Secret({ size: 20 }).base32;
    },

    /** The otpauth:// address and its QR code (inline SVG) for an authenticator app. */
    async enrolment(email: string, secret: string): Promise<{ uri: string; qrSvg: string }> {
      const uri = totpFor(secret, email).toString();
      // Loaded when an operator sets up a second factor, not by every process at start-up.
      const { default: QRCode } = await import('qrcode');
      const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
      return { uri, qrSvg };
    },

    isEnrolled(user: Pick<User, 'totpSecret' | 'totpEnrolledAt'>): boolean {
      return Boolean(user.totpSecret && user.totpEnrolledAt);
    },

    /**
     * Confirms a new authenticator with a code from it, stores its secret and returns ten
     * fresh recovery codes (shown once; only their hashes are kept).
     */
    async enrol(userId: number, secret: string, code: string, now = Date.now()): Promise<string[]> {
      await reserveAttempt(userId);
      const step = matchingStep(secret, code.trim(), now);
      if (step === null) throw new BadRequest(TWO_FACTOR_MESSAGES.wrongCode);
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.transaction(async (trx) => {
        await User.query(trx)
          .findById(userId)
          .patch({ totpSecret: secret, totpEnrolledAt: new Date(now), totpLastStep: step });
        await RecoveryCode.query(trx).delete().where({ userId });
        for (const c of codes) await RecoveryCode.query(trx).insert({ userId, codeHash: hashCode(c) });
      });
      await wrongCodes.clear(String(userId));
      return codes;
    },

    /** Checks a TOTP code or a recovery code; each is accepted once. Throws a 4xx otherwise. */
    async verify(userId: number, code: string, now = Date.now()): Promise<{ usedRecoveryCode: boolean }> {
      await reserveAttempt(userId);
      const user = await User.query(db).findById(userId).select('id', 'totpSecret');
      const typed = code.trim();
      if (user?.totpSecret && /^\d{6}$/.test(typed.replace(/\s/g, ''))) {
        const step = matchingStep(user.totpSecret, typed.replace(/\s/g, ''), now);
        if (step !== null) {
          if (!(await claimStep(userId, step))) throw new BadRequest(TWO_FACTOR_MESSAGES.usedCode);
          await wrongCodes.clear(String(userId));
          return { usedRecoveryCode: false };
        }
      } else if (await useRecoveryCode(userId, typed)) {
        await wrongCodes.clear(String(userId));
        return { usedRecoveryCode: true };
      }
      throw new BadRequest(TWO_FACTOR_MESSAGES.wrongCode);
    },

    async remainingRecoveryCodes(userId: number): Promise<number> {
      const row = await RecoveryCode.query(db).where({ userId }).whereNull('usedAt').count({ n: '*' }).first();
      return Number((row as unknown as { n: number | string } | undefined)?.n ?? 0);
    },
  };

  async function reserveAttempt(userId: number): Promise<void> {
    const { allowed } = await wrongCodes.reserve(String(userId));
    if (!allowed) throw new TooManyRequests(TWO_FACTOR_MESSAGES.tooMany);
  }
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;

/** The code an authenticator would show for this secret at this time (for tests and the CLI). */
export function currentCode(secret: string, now = Date.now()): string {
  return totpFor(secret).generate({ timestamp: now });
}
