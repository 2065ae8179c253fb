import { describe, expect, it } from 'vitest';
import { codeStatus, refusal, savedSentence, type CodeState } from '../../../src/features/discounts/discount.rules.ts';

// One rule says whether a code works today: the back office's list and confirmation use it, and
// so does the checkout's refusal, so the operator never sees "On" for a code parents are refused.
const code = (change: Partial<CodeState> = {}): CodeState & { code: string } => ({
  code: 'SPRING-10',
  active: true,
  startsOn: '2026-12-01',
  endsOn: '2026-12-24',
  maxUses: 5,
  uses: 0,
  held: 0,
  minimumSubtotal: 0,
  ...change,
});

describe("a code's state today", () => {
  it('is on from its first day to its last, both included, and with no dates at all', () => {
    expect(codeStatus(code(), '2026-12-01')).toBe('on');
    expect(codeStatus(code(), '2026-12-24')).toBe('on');
    expect(codeStatus(code({ startsOn: null, endsOn: null, maxUses: null }), '2020-01-01')).toBe('on');
  });

  it('is not started before its first day, expired after its last', () => {
    expect(codeStatus(code(), '2026-11-30')).toBe('not_started');
    expect(codeStatus(code(), '2026-12-25')).toBe('expired');
  });

  it('is off when switched off, whatever its dates', () => {
    expect(codeStatus(code({ active: false }), '2026-12-10')).toBe('off');
    expect(codeStatus(code({ active: 0 }), '2026-12-25')).toBe('off');
  });

  it('is used up once its uses, with those held by payments in progress, reach the maximum', () => {
    expect(codeStatus(code({ uses: 4 }), '2026-12-10')).toBe('on');
    expect(codeStatus(code({ uses: 4, held: 1 }), '2026-12-10')).toBe('used_up');
    expect(codeStatus(code({ uses: 5 }), '2026-12-10')).toBe('used_up');
  });

  it('agrees with the checkout: a code is refused exactly when it is not on', () => {
    const today = ['2026-11-30', '2026-12-10', '2026-12-25'];
    const variants = [code(), code({ active: false }), code({ uses: 5 }), code({ startsOn: null, endsOn: null })];
    for (const day of today)
      for (const c of variants)
        expect(refusal(c, 100_00, day) === undefined, `${JSON.stringify(c)} on ${day}`).toBe(codeStatus(c, day) === 'on');
  });
});

describe('the confirmation after saving', () => {
  it('says "ready to use" only for a code that works today', () => {
    expect(savedSentence(code(), '2026-12-10')).toBe('SPRING-10 is ready to use.');
    expect(savedSentence(code(), '2026-11-20')).toBe('SPRING-10 is saved. Parents can use it from December 1, 2026.');
    expect(savedSentence(code(), '2026-12-25')).toBe('SPRING-10 is saved but has expired: its last day was December 24, 2026.');
    expect(savedSentence(code({ active: false }), '2026-12-10')).toBe(
      'SPRING-10 is saved but switched off: parents cannot use it until you tick Active.',
    );
    expect(savedSentence(code({ uses: 5 }), '2026-12-10')).toBe('SPRING-10 is saved but used up: all 5 uses are taken.');
  });
});
