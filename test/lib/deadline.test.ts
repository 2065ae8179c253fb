import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeadlineExceeded, withinDeadline } from '../../src/lib/deadline.ts';
import { isServiceUnavailable } from '../../src/web/unavailable.ts';

const late = () => new DeadlineExceeded('the test store', 50);

describe('withinDeadline', () => {
  it('answers what the work settles with in time, value or error', async () => {
    await expect(withinDeadline(sleep(5, 'answer'), 50, late)).resolves.toBe('answer');
    await expect(withinDeadline(Promise.reject(new Error('refused')), 50, late)).rejects.toThrow('refused');
  });

  it('rejects with its own error when the work never settles', async () => {
    const silent = new Promise<never>(() => {});
    const err = (await withinDeadline(silent, 50, late).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(DeadlineExceeded);
    expect(err.message).toBe('the test store did not answer within 50 ms');
  });

  it('ignores the work settling after the deadline', async () => {
    const slowFailure = sleep(100).then(() => {
      throw new Error('too late to matter');
    });
    await expect(withinDeadline(slowFailure, 20, late)).rejects.toBeInstanceOf(DeadlineExceeded);
    // The work's own rejection comes after the deadline's: it must not surface as unhandled.
    await sleep(150);
  });

  it('is an outage: the request answers 503 with Retry-After', () => {
    expect(isServiceUnavailable(late())).toBe(true);
  });
});
