import session, { type SessionData, type Store } from 'express-session';
import { DeadlineExceeded } from '../lib/deadline.ts';

type Callback = (err?: unknown, value?: unknown) => void;

/**
 * Gives every call to a session store a deadline, and one way to fail; writes only on set.
 *
 * The Redis client's own timeouts stop once a command is written, so a Redis that accepts
 * connections but answers nothing (paused, swapping, a half-open network) would otherwise
 * hold each request until the reply arrives; a late reply is ignored. The SQL store both
 * calls back with an error and rejects the promise it returns, which express-session never
 * awaits: an unhandled rejection that would end the process on the first database outage.
 */
export class DeadlineStore extends session.Store {
  constructor(
    private readonly inner: Store,
    private readonly ms: number,
  ) {
    super();
  }

  private call(callback: Callback | undefined, run: (done: Callback) => unknown): void {
    let settled = false;
    const finish: Callback = (err, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callback?.(err, value);
    };
    const timer = setTimeout(() => finish(new DeadlineExceeded('the session store', this.ms)), this.ms);
    try {
      const result = run(finish);
      if (result instanceof Promise) result.catch((err: unknown) => finish(err));
    } catch (err) {
      finish(err);
    }
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.call(callback as Callback, (done) => this.inner.get(sid, done));
  }

  override set(sid: string, data: SessionData, callback?: (err?: unknown) => void): void {
    this.call(callback, (done) => this.inner.set(sid, data, done));
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.call(callback, (done) => this.inner.destroy(sid, done));
  }

  // No touch: express-session would call it on every request with an unchanged session (an
  // EXPIRE in Redis, an UPDATE in SQL). Sessions are extended by renewAgingSessions instead.
}
