import { Worker } from 'node:worker_threads';

/** argon2id with OWASP's parameters: 19 MiB, t=2, p=1. */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Two threads of its own: a login flood keeps at most two cores hashing, whatever arrives, and
// never fills libuv's pool, which file reads and DNS lookups share. (Threads at a lowered
// priority kept files fast under a flood, but then hashes waited so long that a network's
// sign-ins in flight passed its attempt limit and were refused: they run at normal priority.)
const THREADS = 2;
// A thread unused this long ends, so an idle shop holds no hashing memory.
const IDLE_MS = 30_000;

// Plain JavaScript evaluated by the thread: it runs the same from the compiled server and
// from the TypeScript sources under test.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { hashSync, verifySync } = require('@node-rs/argon2');
parentPort.on('message', ({ id, op, password, hash }) => {
  try {
    const result = op === 'hash' ? hashSync(password, workerData.options) : verifySync(hash, password);
    parentPort.postMessage({ id, result });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

type Job = { op: 'hash'; password: string } | { op: 'verify'; hash: string; password: string };
interface Pending {
  resolve(result: string | boolean): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}

/** Hashes and checks passwords on THREADS threads of its own, each one job at a time. */
export function createPasswordHasher() {
  const threads: Thread[] = [];
  const queue: Array<{ job: Job; pending: Pending }> = [];
  let nextId = 0;

  function start(): Thread {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { options: ARGON2_OPTIONS } });
    const thread: Thread = { worker, pending: new Map() };
    worker.unref();
    worker.on('message', ({ id, result, error }: { id: number; result?: string | boolean; error?: string }) => {
      const pending = thread.pending.get(id);
      thread.pending.delete(id);
      if (error !== undefined) pending?.reject(new Error(error));
      else pending?.resolve(result!);
      next(thread);
    });
    const fail = (err: Error) => {
      forget(thread);
      for (const pending of thread.pending.values()) pending.reject(err);
      thread.pending.clear();
      drain();
    };
    worker.on('error', fail);
    worker.on('exit', () => thread.pending.size && fail(new Error('the hashing thread stopped')));
    threads.push(thread);
    return thread;
  }

  function forget(thread: Thread): void {
    const at = threads.indexOf(thread);
    if (at !== -1) threads.splice(at, 1);
  }

  function give(thread: Thread, item: { job: Job; pending: Pending }): void {
    clearTimeout(thread.idle);
    const id = nextId++;
    thread.pending.set(id, item.pending);
    thread.worker.postMessage({ id, ...item.job });
  }

  function next(thread: Thread): void {
    const item = queue.shift();
    if (item) return give(thread, item);
    thread.idle = setTimeout(() => {
      forget(thread);
      void thread.worker.terminate();
    }, IDLE_MS).unref();
  }

  function drain(): void {
    while (queue.length) {
      const free = threads.find((t) => t.pending.size === 0) ?? (threads.length < THREADS ? start() : undefined);
      if (!free) return;
      give(free, queue.shift()!);
    }
  }

  function run(job: Job): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      queue.push({ job, pending: { resolve, reject } });
      drain();
    });
  }

  return {
    hash: async (password: string) => (await run({ op: 'hash', password })) as string,
    verify: async (hash: string, password: string) => (await run({ op: 'verify', hash, password })) as boolean,
  };
}
