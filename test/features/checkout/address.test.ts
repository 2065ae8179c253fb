import { describe, expect, it } from 'vitest';
import { validateAddress } from '../../../src/features/checkout/address.ts';

describe('address validation (offline, from the ZIP database)', () => {
  it('accepts a street, city and ZIP code that belong together', () => {
    const result = validateAddress({ address: '214 Maple Street', city: 'portland', zipCode: '97205' });
    expect(result.isValid).toBe(true);
    expect(result.confidence).toBeGreaterThanOrEqual(90);
    expect(result.suggestions).toEqual(['214 Maple Street, Portland, OR 97205']);
  });

  it('flags a city that does not match the ZIP code and suggests the right one', () => {
    const result = validateAddress({ address: '214 Maple Street', city: 'Seattle', zipCode: '97205' });
    expect(result.isValid).toBe(false);
    expect(result.confidence).toBeLessThan(90);
    expect(result.suggestions).toContain('214 Maple Street, Portland, OR 97205');
    for (const s of result.suggestions) expect(s).toMatch(/^.+, .+, [A-Z]{2} \d{5}$/);
  });

  it('gives an unknown ZIP code no confidence', () => {
    expect(validateAddress({ address: '1 Main St', city: 'Nowhere', zipCode: '00000' })).toEqual({
      isValid: false,
      confidence: 0,
      suggestions: [],
    });
  });

  it('does not call a street without a house number valid', () => {
    expect(validateAddress({ address: 'Maple', city: 'Portland', zipCode: '97205' }).isValid).toBe(false);
  });
});
