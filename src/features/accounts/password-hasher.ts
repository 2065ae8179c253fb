import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHashingThreads, type HashingThreads, type HashJob } from './hashing-threads.ts';

// A hash costs a core 10-25 ms. It first runs in the CPU's spare time, so a sign-in never
// delays a page or a file. When the CPU has none (a flood, or a busy sale), the same job also
// goes to a normal-priority thread after PROMPT_AFTER_MS and the first answer wins: a sign-in
// then waits this much longer, never indefinitely. Spare time comes in gaps, so a busy CPU
// still finishes most hashes in it, only later: at 20 sign-ins/s beside a saturating load,
// 150 ms sent 13-21% of them to normal priority as well (hashed twice, once against the pages),
// 500 ms 0-3%, and static files were served about 7% faster.
const PROMPT_AFTER_MS = 500;
// Two threads at normal priority: a login flood keeps at most two cores hashing, whatever
// arrives, and never fills libuv's pool, which file reads and DNS lookups share.
const PROMPT_THREADS = 2;
// Spare-time threads: two at most (each holds 19 MiB while it hashes), and never one on every
// core. Linux moves waiting work onto a core when it goes idle, and a core always running
// spare-time work never does: with both cores of two busy in spare time, static files were
// served 12-21% slower; with one, 0-6% slower.
const SPARE_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
const LATE = Symbol('late');

/**
 * Hashes and checks passwords on threads of their own: in spare time first, at normal priority
 * when a job has waited PROMPT_AFTER_MS (the pools are parameters for tests).
 */
export function createPasswordHasher({
  promptAfterMs = PROMPT_AFTER_MS,
  spare = createHashingThreads({ size: SPARE_THREADS, spareTimeOnly: true }),
  prompt = createHashingThreads({ size: PROMPT_THREADS, spareTimeOnly: false }),
}: { promptAfterMs?: number; spare?: HashingThreads; prompt?: HashingThreads } = {}) {
  let prompted = 0;

  async function run(job: HashJob): Promise<string | boolean> {
    let answered = false;
    // A job whose turn comes after the other thread answered is skipped (it resolves undefined,
    // too late to win a race).
    const unlessAnswered = () => answered;
    // Both copies go through a race, which handles the loser failing after the winner answered.
    const inSpareTime = spare.run(job, unlessAnswered);
    try {
      const first = await Promise.race([inSpareTime, sleep(promptAfterMs, LATE, { ref: false })]);
      if (first !== LATE) return first!;
      prompted += 1;
      return (await Promise.race([inSpareTime, prompt.run(job, unlessAnswered)]))!;
    } finally {
      answered = true;
    }
  }

  return {
    hash: async (password: string) => (await run({ op: 'hash', password })) as string,
    verify: async (hash: string, password: string) => (await run({ op: 'verify', hash, password })) as boolean,
    /** Jobs hashing now and waiting for a thread, and how many went to normal priority so far. */
    load: () => {
      const [a, b] = [spare.load(), prompt.load()];
      return { hashing: a.hashing + b.hashing, waiting: a.waiting + b.waiting, prompted };
    },
  };
}
