import { createHash, randomBytes } from 'node:crypto';
import { createPasswordHasher } from './password-hasher.ts';

// One per process: its threads are the cap on hashes at once (password-hasher.ts).
const hasher = createPasswordHasher();

export function hashPassword(password: string): Promise<string> {
  return hasher.hash(password);
}

/** False for a wrong password and for a hash that is not a hash (a secured account). */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  if (!hash.startsWith('$argon2')) {
    await verifyAgainstDummy(password);
    return false;
  }
  return hasher.verify(hash, password).catch(() => false);
}

// An unknown email costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hasher.hash('not-a-real-password');
  const hash = await dummyHash;
  await hasher.verify(hash, password).catch(() => false);
}

/** Marks an account's password as unusable (after a lockout) without a hash to crack. */
export const NO_PASSWORD = '!secured';

/** Secrets mailed to a parent: reset-link tokens and temporary passwords. */
export function randomSecret(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

/** A temporary password a parent can type from an email: 12 characters, no look-alikes. */
export function temporaryPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

/** High-entropy secrets are stored as SHA-256, so they can be looked up but not read. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
