/**
 * Work that runs after the caller has answered, so how long an answer takes cannot tell what
 * the work found. Kept in this process: a task lost to a crash is one the parent can ask for again.
 */
export interface Deferred {
  run(task: () => Promise<unknown>): void;
  /** Resolves once every task started so far has finished. */
  settled(): Promise<void>;
}

export function createDeferred(onError: (err: unknown) => void): Deferred {
  const pending = new Set<Promise<void>>();
  return {
    run(task) {
      const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(task)
        .then(
          () => undefined,
          (err: unknown) => onError(err),
        )
        .finally(() => pending.delete(job));
      pending.add(job);
    },
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
