import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';

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
  pending?: Pending;
  idle?: NodeJS.Timeout;
}

/** Hashes and checks passwords on THREADS threads of its own, each one job at a time. */
export function createPasswordHasher() {
  const threads: Thread[] = [];
  // At most THREADS jobs run, so a job always finds a free thread or room to start one.
  const limit = pLimit(THREADS);
  let nextId = 0;

  function start(): Thread {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { options: ARGON2_OPTIONS } });
    const thread: Thread = { worker };
    worker.unref();
    worker.on('message', ({ result, error }: { result?: string | boolean; error?: string }) => {
      const pending = thread.pending;
      thread.pending = undefined;
      rest(thread);
      if (error !== undefined) pending?.reject(new Error(error));
      else pending?.resolve(result!);
    });
    const fail = (err: Error) => {
      forget(thread);
      const pending = thread.pending;
      thread.pending = undefined;
      pending?.reject(err);
    };
    worker.on('error', fail);
    worker.on('exit', () => (thread.pending ? fail(new Error('the hashing thread stopped')) : forget(thread)));
    threads.push(thread);
    return thread;
  }

  function forget(thread: Thread): void {
    clearTimeout(thread.idle);
    const at = threads.indexOf(thread);
    if (at !== -1) threads.splice(at, 1);
  }

  function rest(thread: Thread): void {
    thread.idle = setTimeout(() => {
      forget(thread);
      void thread.worker.terminate();
    }, IDLE_MS).unref();
  }

  function onThread(job: Job): Promise<string | boolean> {
    const thread = threads.find((t) => !t.pending) ?? start();
    clearTimeout(thread.idle);
    return new Promise((resolve, reject) => {
      thread.pending = { resolve, reject };
      thread.worker.postMessage({ id: nextId++, ...job });
    });
  }

  const run = (job: Job) => limit(() => onThread(job));

  return {
    hash: async (password: string) => (await run({ op: 'hash', password })) as string,
    verify: async (hash: string, password: string) => (await run({ op: 'verify', hash, password })) as boolean,
    /** Jobs on a thread now, and jobs waiting for one. */
    load: () => ({ hashing: limit.activeCount, waiting: limit.pendingCount }),
  };
}
