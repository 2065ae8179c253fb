import { describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../../src/features/accounts/password-hasher.ts';

describe('the password hasher', () => {
  it('makes argon2id hashes with OWASP parameters that verify only the right password', async () => {
    const hasher = createPasswordHasher();
    const hash = await hasher.hash('story-time-42');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(hash, 'story-time-42')).toBe(true);
    expect(await hasher.verify(hash, 'story-time-43')).toBe(false);
  });

  it('checks a hash made by another argon2 implementation (parameters in another order)', async () => {
    const hasher = createPasswordHasher();
    const made = '$argon2id$v=19$m=19456,p=1,t=2$PSo/lfTDp2gZmXiAzHRb2Q$WvU+jaTKydvAMzFb4zpxevEQ0SIeF01zYYJTHEd7LfU';
    expect(await hasher.verify(made, 'pw')).toBe(true);
  });

  it('answers many requests at once, each with its own result', async () => {
    const hasher = createPasswordHasher();
    const hashes = await Promise.all(['a1', 'b2', 'c3', 'd4', 'e5'].map((p) => hasher.hash(p)));
    expect(new Set(hashes).size).toBe(5);
    const checks = await Promise.all(hashes.map((hash, i) => hasher.verify(hash, ['a1', 'b2', 'c3', 'd4', 'e5'][(i + 1) % 5]!)));
    expect(checks).toEqual([false, false, false, false, false]);
  });

  it('rejects a malformed hash instead of hanging', async () => {
    const hasher = createPasswordHasher();
    await expect(hasher.verify('$argon2id$nonsense', 'pw')).rejects.toThrow();
  });

  it('hashes at most two passwords at once; the rest wait their turn', async () => {
    const hasher = createPasswordHasher();
    const passwords = ['a1', 'b2', 'c3', 'd4', 'e5'];
    let busiest = 0;
    const all = Promise.all(passwords.map((p) => hasher.hash(p)));
    const watch = setInterval(() => (busiest = Math.max(busiest, hasher.load().hashing)), 1);
    await expect.poll(() => hasher.load()).toEqual({ hashing: 2, waiting: 3 });
    await all;
    clearInterval(watch);
    expect(busiest).toBe(2);
    expect(hasher.load()).toEqual({ hashing: 0, waiting: 0 });
  });
});
