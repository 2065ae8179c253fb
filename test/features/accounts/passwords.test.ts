import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ARGON2_OWASP,
  hashingLoad,
  hashPassword,
  NO_PASSWORD,
  usePasswordCost,
  verifyPassword,
} from '../../../src/features/accounts/passwords.ts';

// Made by @node-rs/argon2, which hashed the passwords parents already have stored.
const STORED_BEFORE = '$argon2id$v=19$m=19456,t=2,p=1$uV5/5+eBATs5J+EbuWqtuQ$VGKeS7yU6fK+we/IF1RMA3+uFPpS+gIzoLKu1TNYcGI';
const STORED_PASSWORD = 'once-upon-a-time';

afterEach(() => {
  vi.restoreAllMocks();
  usePasswordCost('owasp');
});

describe('passwords', () => {
  it('verifies the password a hash was made from, and no other', async () => {
    usePasswordCost('test');
    const hash = await hashPassword('story-time-42');
    expect(await verifyPassword(hash, 'story-time-42')).toBe(true);
    expect(await verifyPassword(hash, 'story-time-43')).toBe(false);
  });

  it('still accepts the passwords parents stored before the change of library', async () => {
    expect(await verifyPassword(STORED_BEFORE, STORED_PASSWORD)).toBe(true);
    expect(await verifyPassword(STORED_BEFORE, 'once-upon-a-tim')).toBe(false);
  });

  it('hashes with argon2id at OWASP cost: 19 MiB, t=2, p=1', async () => {
    expect(ARGON2_OWASP).toEqual({ type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(phc(await hashPassword('story-time-42'))).toEqual({ type: 'argon2id', version: '19', m: 19_456, t: 2, p: 1 });
  });

  it('hashes cheaply at test cost', async () => {
    usePasswordCost('test');
    expect(phc(await hashPassword('story-time-42'))).toEqual({ type: 'argon2id', version: '19', m: 1024, t: 1, p: 1 });
  });

  it('refuses a secured account after a dummy check that costs what a real one does', async () => {
    const hash = vi.spyOn(argon2, 'hash');
    const verify = vi.spyOn(argon2, 'verify');
    expect(await verifyPassword(NO_PASSWORD, 'story-time-42')).toBe(false);
    expect(hash).toHaveBeenLastCalledWith(expect.any(String), ARGON2_OWASP);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(phc(verify.mock.calls[0]![0])).toMatchObject({ m: 19_456, t: 2, p: 1 });

    // A new cost makes a new dummy: the old one would answer at the old cost.
    usePasswordCost('test');
    expect(await verifyPassword(NO_PASSWORD, 'story-time-42')).toBe(false);
    expect(phc(verify.mock.calls[1]![0])).toMatchObject({ m: 1024, t: 1, p: 1 });
  });

  it('answers false, not an error, for a stored hash argon2 cannot read', async () => {
    expect(await verifyPassword('$argon2id$nonsense', 'story-time-42')).toBe(false);
    expect(await verifyPassword('$argon2id$v=19$m=1024,t=1,p=1$$', 'story-time-42')).toBe(false);
  });

  it('fails, never answers a wrong password, when argon2 cannot finish a check', async () => {
    usePasswordCost('test');
    const hash = await hashPassword('story-time-42');
    vi.spyOn(argon2, 'verify').mockRejectedValueOnce(new Error('Memory allocation error'));
    await expect(verifyPassword(hash, 'story-time-42')).rejects.toThrow('Memory allocation error');
  });

  it('hashes at most two passwords at once; the rest wait their turn', async () => {
    usePasswordCost('test');
    let busiest = 0;
    const watch = () => (busiest = Math.max(busiest, hashingLoad().active));
    const hashes = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6'].map((p) => hashPassword(p).finally(watch));
    expect(hashingLoad()).toEqual({ active: 2, pending: 4 });
    await Promise.all(hashes);
    expect(busiest).toBe(2);
    expect(hashingLoad()).toEqual({ active: 0, pending: 0 });
  });

  it('leaves the event loop free while a password is hashed and checked', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    try {
      expect(await verifyPassword(await hashPassword('story-time-42'), 'story-time-42')).toBe(true);
    } finally {
      clearInterval(timer);
    }
    // Hashing on the event loop would let no timer run before the answer.
    expect(ticks).toBeGreaterThanOrEqual(3);
  });
});

/** The algorithm and parameters of a PHC string, whatever order the parameters come in. */
function phc(hash: string) {
  const [, type, version, params] = hash.split('$');
  const values = Object.fromEntries(params!.split(',').map((pair) => pair.split('=')));
  return { type, version: version!.replace('v=', ''), m: Number(values.m), t: Number(values.t), p: Number(values.p) };
}
