import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';

/** argon2id with OWASP's parameters: 19 MiB, t=2, p=1. */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// A thread unused this long ends, so an idle shop holds no hashing memory.
const IDLE_MS = 30_000;

// Plain JavaScript evaluated by the thread: it runs the same from the compiled server and
// from the TypeScript sources under test. A spare-time thread asks Linux for SCHED_IDLE on
// itself (chrt on its own thread id; lowering needs no privilege): the kernel then runs it
// only on a core nothing else wants, and takes the core back the moment anything does.
// Where that is refused or there is no /proc, the thread keeps normal priority.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { hashSync, verifySync } = require('@node-rs/argon2');
if (workerData.spareTimeOnly) {
  try {
    const threadId = require('node:fs').readlinkSync('/proc/thread-self').split('/').pop();
    require('node:child_process').execFileSync('chrt', ['--idle', '--pid', '0', threadId], { stdio: 'ignore' });
  } catch {}
}
parentPort.on('message', ({ op, password, hash }) => {
  try {
    const result = op === 'hash' ? hashSync(password, workerData.options) : verifySync(hash, password);
    parentPort.postMessage({ result });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
});
`;

export type HashJob = { op: 'hash'; password: string } | { op: 'verify'; hash: string; password: string };

export interface HashingThreads {
  /** Runs the job on a free thread, or waits for one; `unless` is asked when its turn comes (true: skip it, resolve undefined). */
  run(job: HashJob, unless?: () => boolean): Promise<string | boolean | undefined>;
  /** Jobs on a thread now, and jobs waiting for one. */
  load(): { hashing: number; waiting: number };
}

interface Pending {
  resolve(result: string | boolean): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  pending?: Pending;
  idle?: NodeJS.Timeout;
}

/** `size` threads of their own, each one job at a time; at spare-time priority when `spareTimeOnly`. */
export function createHashingThreads({ size, spareTimeOnly }: { size: number; spareTimeOnly: boolean }): HashingThreads {
  const threads: Thread[] = [];
  // At most `size` jobs run, so a job always finds a free thread or room to start one.
  const limit = pLimit(size);

  function start(): Thread {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { options: ARGON2_OPTIONS, spareTimeOnly } });
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

  function onThread(job: HashJob): Promise<string | boolean> {
    const thread = threads.find((t) => !t.pending) ?? start();
    clearTimeout(thread.idle);
    return new Promise((resolve, reject) => {
      thread.pending = { resolve, reject };
      thread.worker.postMessage(job);
    });
  }

  return {
    run: (job, unless = () => false) => limit(() => (unless() ? undefined : onThread(job))),
    load: () => ({ hashing: limit.activeCount, waiting: limit.pendingCount }),
  };
}
