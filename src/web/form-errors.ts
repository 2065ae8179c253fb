import { HttpError, isClientError } from './errors.ts';

/**
 * Runs a form's action. A refusal the person can act on (a typed 4xx: a wrong password, a
 * sold-out book) goes to onRefused, which shows it on the form; anything else (a 5xx, an
 * outage, a bug) goes on to the error handler, so a server fault never reads as a form message.
 */
export async function withFormErrors<T>(action: () => Promise<T>, onRefused: (err: HttpError) => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    if (!isClientError(err)) throw err;
    return onRefused(err);
  }
}
