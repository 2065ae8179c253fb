import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createHashingThreads, type HashingThreads } from '../../../src/features/accounts/hashing-threads.ts';
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

  it('hashes in spare time: its threads run under SCHED_IDLE, so a page or a file never waits for one', async () => {
    const hasher = createPasswordHasher({ promptAfterMs: 60_000 });
    await hasher.hash('story-time-42');
    // The thread stays up between jobs; field 41 of a thread's stat is its scheduling policy.
    const policies = readdirSync('/proc/self/task').map((thread) => {
      const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
    });
    expect(policies).toContain(SCHED_IDLE);
    expect(hasher.load().prompted).toBe(0);
  });

  it('hashes in spare time on two cores at most, and never on every core (one core of two)', async () => {
    const hasher = createPasswordHasher({ promptAfterMs: 60_000 });
    const threads = Math.max(1, Math.min(2, availableParallelism() - 1));
    const jobs = Promise.all(['a1', 'b2', 'c3', 'd4'].map((p) => hasher.hash(p)));
    expect(hasher.load()).toEqual({ hashing: threads, waiting: 4 - threads, prompted: 0 });
    await jobs;
  });

  it('runs a job at normal priority when it finds no spare time, and drops the spare-time copy', async () => {
    const spare = starvedThreads();
    const hasher = createPasswordHasher({ promptAfterMs: 20, spare });
    const hash = await hasher.hash('story-time-42');
    expect(await hasher.verify(hash, 'story-time-42')).toBe(true);
    expect(await hasher.verify(hash, 'story-time-43')).toBe(false);
    expect(hasher.load().prompted).toBe(3);
    // When the CPU frees up, the starved copies are skipped, not hashed a second time.
    expect(spare.turnsSkipped()).toEqual([true, true, true]);
  });

  it('skips a job whose turn comes after its answer was found elsewhere', async () => {
    const threads = createHashingThreads({ size: 1, spareTimeOnly: false });
    const first = threads.run({ op: 'hash', password: 'a1' });
    let answeredElsewhere = false;
    const second = threads.run({ op: 'hash', password: 'b2' }, () => answeredElsewhere);
    expect(threads.load()).toEqual({ hashing: 1, waiting: 1 });
    answeredElsewhere = true;
    expect(await first).toMatch(/^\$argon2id\$/);
    expect(await second).toBeUndefined();
  });

  it('gives spare time half a second before asking a normal-priority thread', async () => {
    const prompt = starvedThreads();
    const slowSpare: HashingThreads = {
      run: () => new Promise((resolve) => setTimeout(() => resolve('$argon2id$v=19$m=19456,t=2,p=1$late'), 300)),
      load: () => ({ hashing: 0, waiting: 0 }),
    };
    const hasher = createPasswordHasher({ spare: slowSpare, prompt });
    expect(await hasher.hash('story-time-42')).toBe('$argon2id$v=19$m=19456,t=2,p=1$late');
    expect(prompt.jobs).toBe(0);
    expect(hasher.load().prompted).toBe(0);
  });

  it('keeps the answer of a job that finished in spare time, without asking a normal-priority thread', async () => {
    const prompt = starvedThreads();
    const hasher = createPasswordHasher({ promptAfterMs: 60_000, prompt });
    expect(await hasher.verify(await hasher.hash('pw'), 'pw')).toBe(true);
    expect(prompt.jobs).toBe(0);
  });

  it('hashes at most two passwords at once at normal priority; the rest wait their turn', async () => {
    const hasher = createPasswordHasher({ promptAfterMs: 10, spare: starvedThreads() });
    const passwords = ['a1', 'b2', 'c3', 'd4', 'e5'];
    let [busiest, mostWaiting] = [0, 0];
    const watch = setInterval(() => {
      const { hashing, waiting } = hasher.load();
      [busiest, mostWaiting] = [Math.max(busiest, hashing), Math.max(mostWaiting, waiting)];
    }, 1);
    await Promise.all(passwords.map((p) => hasher.hash(p)));
    clearInterval(watch);
    expect(busiest).toBe(2);
    expect(mostWaiting).toBe(3);
    expect(hasher.load()).toEqual({ hashing: 0, waiting: 0, prompted: 5 });
  });

  it('ignores the spare-time copy failing after the answer came from normal priority', async () => {
    const unhandled: unknown[] = [];
    const keep = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', keep);
    try {
      let failLate = () => {};
      const spare: HashingThreads = {
        run: () => new Promise((_resolve, reject) => (failLate = () => reject(new Error('the hashing thread stopped')))),
        load: () => ({ hashing: 0, waiting: 0 }),
      };
      const hasher = createPasswordHasher({ promptAfterMs: 10, spare });
      expect(await hasher.hash('story-time-42')).toMatch(/^\$argon2id\$/);
      failLate();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', keep);
    }
  });
});

const SCHED_IDLE = 5;

/** Threads on a CPU with no spare time: jobs wait until `turnsSkipped` gives each its turn. */
function starvedThreads(): HashingThreads & { jobs: number; turnsSkipped(): boolean[] } {
  const unlessOf: Array<() => boolean> = [];
  return {
    run: (_job, unless = () => false) => {
      unlessOf.push(unless);
      return new Promise(() => {});
    },
    load: () => ({ hashing: 0, waiting: 0 }),
    get jobs() {
      return unlessOf.length;
    },
    turnsSkipped: () => unlessOf.map((unless) => unless()),
  };
}
