import type { RequestHandler } from 'express';
import { TooManyRequests } from './errors.ts';

// Work that costs a process far more than a page (a password hashed, a payment started) is let
// in a few at a time. When more arrive than the machine can do, the rest wait their turn
// without taking anything, and past a short wait they are told to try again in a moment: the
// event loop then stays free for the pages everyone else is reading, and the parents let in
// finish in seconds instead of all waiting a minute together.

export interface AdmissionOptions {
  /** Requests of this kind one process works on at once. */
  atOnce: number;
  /** How long a request may wait for its turn before it is refused. */
  maxWaitMs: number;
  /** What a refused request is told (429, with Retry-After). */
  message: string;
  /** Seconds a refused client is asked to wait. */
  retryAfterSeconds?: number;
}

export interface Admission {
  handler: RequestHandler;
  /** Requests being worked on and waiting, for the tests and the status page. */
  counts(): { working: number; waiting: number };
}

export function admission({ atOnce, maxWaitMs, message, retryAfterSeconds = 5 }: AdmissionOptions): Admission {
  let working = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else working--;
  };

  const handler: RequestHandler = (_req, res, next) => {
    const start = () => {
      // The turn ends when the answer is sent or the client goes away, whichever comes first.
      res.once('close', release);
      next();
    };
    if (working < atOnce) {
      working++;
      return start();
    }
    const leave = () => {
      clearTimeout(timer);
      res.off('close', leave);
      const at = waiting.indexOf(turn);
      if (at !== -1) waiting.splice(at, 1);
    };
    const turn = () => {
      clearTimeout(timer);
      res.off('close', leave);
      start();
    };
    const timer = setTimeout(() => {
      leave();
      res.set('Retry-After', String(retryAfterSeconds));
      next(new TooManyRequests(message));
    }, maxWaitMs);
    // A client that goes away while it waits gives up its place.
    res.once('close', leave);
    waiting.push(turn);
  };

  return { handler, counts: () => ({ working, waiting: waiting.length }) };
}
