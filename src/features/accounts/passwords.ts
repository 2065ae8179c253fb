import { createHash, randomBytes } from 'node:crypto';
import argon2, { type HashOptions } from 'argon2';
import pLimit from 'p-limit';

/** argon2id with OWASP's parameters: 19 MiB, t=2, p=1. */
export const ARGON2_OWASP = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Tests sign many parents up and in; production refuses this cost (config.ts).
const ARGON2_TEST = { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

const COSTS = { owasp: ARGON2_OWASP, test: ARGON2_TEST } as const;

let options: HashOptions = ARGON2_OWASP;
let dummyHash: Promise<string> | undefined;

// Each hash holds a core and 19 MiB, and runs on libuv's pool, which file reads and DNS
// lookups share: a flood of sign-ins may keep two of its threads busy, never all of them.
const limit = pLimit(2);

/** Sets how costly new hashes are: 'owasp' everywhere but tests (config's PASSWORD_HASH_COST). */
export function usePasswordCost(cost: 'owasp' | 'test'): void {
  options = COSTS[cost];
  // The dummy must cost what a real check costs, or timing would tell unknown emails apart.
  dummyHash = undefined;
}

/** Hashes running now and hashes waiting their turn. */
export function hashingLoad(): { active: number; pending: number } {
  return { active: limit.activeCount, pending: limit.pendingCount };
}

export function hashPassword(password: string): Promise<string> {
  return limit(() => argon2.hash(password, options));
}

/** An argon2 hash as argon2 writes it: type, version, parameters, salt and hash. */
const ARGON2_HASH = /^\$argon2(?:id|i|d)\$(?:v=\d+\$)?[a-z]+=[A-Za-z0-9+/]+(?:,[a-z]+=[A-Za-z0-9+/]+)*\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/**
 * False for a wrong password and for a stored value that is not an argon2 hash (a secured
 * account, or a value argon2 could not read), after a check that costs what a real one does.
 * A check argon2 cannot finish (memory, say) is an error, never a wrong password: counted as
 * one, it would lock a parent out for the server's failure.
 */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  if (!ARGON2_HASH.test(hash)) {
    await verifyAgainstDummy(password);
    return false;
  }
  return check(hash, password);
}

function check(hash: string, password: string): Promise<boolean> {
  return limit(() => argon2.verify(hash, password));
}

// An unknown email costs the same time as a wrong password.
export async function verifyAgainstDummy(password: string): Promise<void> {
  await check(await dummy(), password);
}

function dummy(): Promise<string> {
  if (dummyHash) return dummyHash;
  const made = hashPassword('not-a-real-password');
  dummyHash = made;
  // A failed hash is made again on the next sign-in instead of failing every one after it; the
  // sign-in that asked for it gets the failure (returned below), so nothing is lost here.
  made.catch(() => {
    if (dummyHash === made) dummyHash = undefined;
  });
  return made;
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
