/** A backing service that did not answer in time: an outage, answered 503 like any other (unavailable.ts). */
export class DeadlineExceeded extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
  }
}

/**
 * What `work` settles with, or a rejection with `late()` once `ms` have passed first. The work
 * itself is left to finish on its own; whatever it settles with then is ignored.
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
