import { describe, expect, it } from 'vitest';
import { normaliseIsbn13 } from '../../../../src/features/catalog/isbn.ts';

describe('normaliseIsbn13', () => {
  it('accepts a valid ISBN-13 with hyphens, spaces or neither, as its 13 digits', () => {
    expect(normaliseIsbn13('978-0-306-40615-7')).toBe('9780306406157');
    expect(normaliseIsbn13('978 1 4028 9462 6')).toBe('9781402894626');
    expect(normaliseIsbn13('9780141036144')).toBe('9780141036144');
    // A check digit of 0: (10 - sum % 10) % 10.
    expect(normaliseIsbn13('9780000000002')).toBe('9780000000002');
  });

  it('refuses a wrong check digit, a wrong length, an ISBN-10 and other characters', () => {
    for (const bad of [
      '978-0-306-40615-8',
      '978030640615',
      '97803064061577',
      '0-306-40615-2',
      '978-0-306-4061X-7',
      '',
      'isbn 9780306406157',
    ]) {
      expect(normaliseIsbn13(bad), bad).toBeNull();
    }
  });
});
