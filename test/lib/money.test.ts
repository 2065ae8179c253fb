import { describe, expect, it } from 'vitest';
import { decimalTotals } from '../../src/features/pricing/pricing.ts';
import { formatUsd, formatUsdBrief, toCents, toDecimal } from '../../src/lib/money.ts';

describe('money', () => {
  it('parses DECIMAL strings from MySQL exactly', () => {
    expect(toCents('12.99')).toBe(1299);
    expect(toCents('0.10')).toBe(10);
    expect(toCents('50.00')).toBe(5000);
    expect(toCents('7.5')).toBe(750);
  });

  it('parses numbers from SQLite without float drift', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
  });

  it('reads the digits as written, where multiplying by 100 in floating point would not', () => {
    // In floating point 4.35 * 100 is 434.99999999999994 and 0.29 * 100 is 28.999999999999996.
    expect(toCents('14.99')).toBe(1499);
    expect(toCents('1.01')).toBe(101);
    expect(toCents('4.35')).toBe(435);
    expect(toCents('0.29')).toBe(29);
    expect(toCents('1.10')).toBe(110);
    expect(toCents(' 12.99 ')).toBe(1299);
    expect(toCents('0012.50')).toBe(1250);
    const misread = Array.from({ length: 100_001 }, (_, cents) => cents).filter((cents) => toCents(toDecimal(cents)) !== cents);
    expect(misread).toEqual([]);
  });

  it('reads negative amounts and never returns minus zero', () => {
    expect(toCents('-4.50')).toBe(-450);
    expect(toCents('-0.01')).toBe(-1);
    expect(toCents(-19.99)).toBe(-1999);
    expect(Object.is(toCents('-0.00'), 0)).toBe(true);
  });

  it('reads a sum that drifted in floating point as the cents it adds up to', () => {
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(0.7 + 0.1)).toBe(80);
    expect(toCents(1.1 + 2.2)).toBe(330);
    expect(toCents(99_999_999.99)).toBe(9_999_999_999);
  });

  it('refuses a third decimal with a message that says so, in text and in numbers', () => {
    expect(() => toCents('12.999')).toThrow(/at most two decimals/);
    expect(() => toCents('0.001')).toThrow(/at most two decimals/);
    expect(() => toCents('12.990')).toThrow(/at most two decimals/);
    expect(() => toCents(12.345)).toThrow(/at most two decimals/);
    expect(() => toCents(0.001)).toThrow(/at most two decimals/);
  });

  it('refuses exponents, separators and other text that is not an amount', () => {
    for (const text of ['abc', '', '1,000.00', '1e3', '1E3', '1.5e2', '+5', '.5', '5.', '$5', '5 00', '0x10', 'Infinity', 'NaN'])
      expect(() => toCents(text), text).toThrow(TypeError);
    expect(() => toCents(Number.NaN)).toThrow(TypeError);
    expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });

  it('refuses an amount too large to count in cents exactly, and takes the largest that is', () => {
    expect(toCents('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => toCents('90071992547409.92')).toThrow(/too large/);
    expect(() => toCents('99999999999999999999')).toThrow(/too large/);
    expect(() => toCents(1e17)).toThrow(/too large/);
    expect(() => toCents(1e21)).toThrow(TypeError);
  });

  it('writes cents as the API decimal string and as dollars', () => {
    expect(toDecimal(1299)).toBe('12.99');
    expect(toDecimal(5)).toBe('0.05');
    expect(toDecimal(5000)).toBe('50.00');
    expect(formatUsd(499)).toBe('$4.99');
    expect(formatUsd(-250)).toBe('-$2.50');
  });

  it('pads every amount to two decimals, thousands included', () => {
    expect(toDecimal(0)).toBe('0.00');
    expect(toDecimal(100000)).toBe('1000.00');
    expect(toDecimal(123456789)).toBe('1234567.89');
    expect(toDecimal(-5)).toBe('-0.05');
    expect(toDecimal(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
    expect(() => toDecimal(2 ** 53)).toThrow(TypeError);
    expect(() => toDecimal(Number.NaN)).toThrow(TypeError);
  });

  it('rounds a fraction of a cent half up before writing it', () => {
    expect(toDecimal(1299.5)).toBe('13.00');
    expect(toDecimal(1299.49)).toBe('12.99');
    expect(toDecimal(0.4)).toBe('0.00');
    expect(formatUsd(249.5)).toBe('$2.50');
    expect(toDecimal(-0.4)).toBe('0.00');
    expect(formatUsd(-0.4)).toBe('$0.00');
  });

  it('writes a scale label grouped, with cents only when there are some', () => {
    expect(formatUsdBrief(0)).toBe('$0');
    expect(formatUsdBrief(5000)).toBe('$50');
    expect(formatUsdBrief(100_000_000)).toBe('$1,000,000');
    expect(formatUsdBrief(125_050)).toBe('$1,250.50');
    expect(formatUsdBrief(-250_000)).toBe('-$2,500');
  });

  it('writes a set of totals as the API shows them, each through the one formatter', () => {
    expect(decimalTotals({ subtotal: 2500, discount: 100, shipping: 499, handling: 250, tax: 5, total: 100000 })).toEqual({
      subtotal: '25.00',
      discount: '1.00',
      shipping: '4.99',
      handling: '2.50',
      tax: '0.05',
      total: '1000.00',
    });
  });
});
