import { describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGES, refusal, type CodeState } from '../../../src/features/discounts/discount.rules.ts';

const code = (change: Partial<CodeState> = {}): CodeState => ({
  active: true,
  startsOn: '2026-12-01',
  endsOn: '2026-12-24',
  maxUses: 5,
  uses: 0,
  held: 0,
  minimumSubtotal: 30_00,
  ...change,
});

describe('whether a code may be used', () => {
  it('works from its first day to its last, both included (UTC days)', () => {
    expect(refusal(code(), 30_00, '2026-12-01')).toBeUndefined();
    expect(refusal(code(), 30_00, '2026-12-24')).toBeUndefined();
    expect(refusal(code({ startsOn: null, endsOn: null }), 30_00, '2020-01-01')).toBeUndefined();
  });

  it('is refused before it starts, saying when it starts', () => {
    expect(refusal(code(), 30_00, '2026-11-30')).toBe('That code can be used from December 1, 2026.');
  });

  it('is refused after its last day', () => {
    expect(refusal(code(), 30_00, '2026-12-25')).toBe(DISCOUNT_MESSAGES.expired);
  });

  it('is refused once its uses, with those held by payments in progress, reach the maximum', () => {
    expect(refusal(code({ uses: 4 }), 30_00, '2026-12-10')).toBeUndefined();
    expect(refusal(code({ uses: 4, held: 1 }), 30_00, '2026-12-10')).toBe(DISCOUNT_MESSAGES.usedUp);
    expect(refusal(code({ uses: 5 }), 30_00, '2026-12-10')).toBe(DISCOUNT_MESSAGES.usedUp);
    expect(refusal(code({ maxUses: null, uses: 900 }), 30_00, '2026-12-10')).toBeUndefined();
  });

  it('is refused when switched off', () => {
    expect(refusal(code({ active: 0 }), 30_00, '2026-12-10')).toBe(DISCOUNT_MESSAGES.switchedOff);
  });

  it('is refused below its minimum subtotal, naming the minimum', () => {
    expect(refusal(code(), 29_99, '2026-12-10')).toBe('That code needs a subtotal of $30.00 or more.');
  });
});
