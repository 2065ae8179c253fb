import { describe, expect, it } from 'vitest';
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
});
