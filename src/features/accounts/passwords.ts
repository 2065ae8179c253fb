import { createHash, randomBytes } from 'node:crypto';
import argon2 from 'argon2';

// argon2id with OWASP's parameters: 19 MiB, t=2, p=1.
const ARGON2 = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// A login flood must not starve the rest of the server: at most this many hashes at once.
const MAX_CONCURRENT_HASHES = 4;
let running = 0;
const waiting: Array<() => void> = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => argon2.hash(password, ARGON2));
}

/** False for a wrong password and for a hash that is not a hash (a secured account). */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  if (!hash.startsWith('$argon2')) {
    await verifyAgainstDummy(password);
    return false;
  }
  return limited(() => argon2.verify(hash, password).catch(() => false));
}

// An unknown email costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= argon2.hash('not-a-real-password', ARGON2);
  const hash = await dummyHash;
  await limited(() => argon2.verify(hash, password).catch(() => false));
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
