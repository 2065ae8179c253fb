import { describe, expect, it } from 'vitest';
import { decimalTotals } from '../../src/features/pricing/pricing.ts';
import { formatUsd, toCents, toDecimal } from '../../src/lib/money.ts';

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

  it('refuses text that is not an amount', () => {
    expect(() => toCents('abc')).toThrow(TypeError);
    expect(() => toCents('1,000.00')).toThrow(TypeError);
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
  });

  it('rounds a fraction of a cent half up before writing it', () => {
    expect(toDecimal(1299.5)).toBe('13.00');
    expect(toDecimal(1299.49)).toBe('12.99');
    expect(toDecimal(0.4)).toBe('0.00');
    expect(formatUsd(249.5)).toBe('$2.50');
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
