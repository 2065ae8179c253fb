import { describe, expect, it } from 'vitest';
import { Conflict, HttpError, NotFound, Unavailable } from '../../src/web/errors.ts';
import { withFormErrors } from '../../src/web/form-errors.ts';

// A form shows a refusal the person can act on (a typed 4xx) on its own page; anything else
// goes on to the error handler, so a server fault is never dressed up as a form message.
describe('withFormErrors', () => {
  it('answers with the action when it succeeds', async () => {
    expect(
      await withFormErrors(
        async () => 'saved',
        () => 'refused',
      ),
    ).toBe('saved');
  });

  it('hands a typed 4xx to the form, with its status and message', async () => {
    const seen = await withFormErrors(
      async () => {
        throw new Conflict('Only 2 left.');
      },
      (err) => `${err.status} ${err.message}`,
    );
    expect(seen).toBe('409 Only 2 left.');
  });

  it('passes a 5xx on to the error handler', async () => {
    const outage = new Unavailable();
    await expect(
      withFormErrors(
        () => Promise.reject(outage),
        () => 'refused',
      ),
    ).rejects.toBe(outage);
    const fault = new HttpError(500, 'broken');
    await expect(
      withFormErrors(
        () => Promise.reject(fault),
        () => 'refused',
      ),
    ).rejects.toBe(fault);
  });

  it('passes an error that is not a typed one on to the error handler', async () => {
    const bug = new TypeError('undefined is not a function');
    await expect(
      withFormErrors(
        () => Promise.reject(bug),
        () => 'refused',
      ),
    ).rejects.toBe(bug);
  });

  it('lets the form pass a refusal on too (a 404 the error page answers)', async () => {
    const missing = new NotFound();
    await expect(
      withFormErrors(
        () => Promise.reject(missing),
        (err) => {
          if (err instanceof NotFound) throw err;
          return 'refused';
        },
      ),
    ).rejects.toBe(missing);
  });
});
