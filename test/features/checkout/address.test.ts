import { describe, expect, it } from 'vitest';
import { judgeAddress, validateAddress } from '../../../src/features/checkout/address.ts';

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
    expect(result.suggestions).toEqual(['214 Maple Street, Portland, OR 97205']);
  });

  it("keeps a ZIP code that exists and corrects the city to the ZIP code's own: 33139 is Miami Beach", () => {
    const result = validateAddress({ address: '12 Ocean Ave', city: 'Miami', zipCode: '33139' });
    expect(result.isValid).toBe(false);
    expect(result.suggestions).toEqual(['12 Ocean Ave, Miami Beach, FL 33139']);
  });

  it('accepts 12 Ocean Ave, Miami Beach, 33139 as it is', () => {
    expect(validateAddress({ address: '12 Ocean Ave', city: 'miami beach', zipCode: '33139' })).toEqual({
      isValid: true,
      confidence: 95,
      suggestions: ['12 Ocean Ave, Miami Beach, FL 33139'],
    });
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

describe('judgeAddress (the rule, given the place a ZIP code belongs to)', () => {
  const place = { zip: '33139', city: 'MIAMI BEACH', state: 'FL' };

  it('never suggests a ZIP code other than the one that exists, whatever the city typed', () => {
    for (const city of ['Miami', 'Orlando', 'Hialeah', 'Miami Beach', '']) {
      const { suggestions } = judgeAddress({ street: '12 Ocean Ave', city }, place);
      expect(suggestions.length, city).toBeGreaterThan(0);
      for (const s of suggestions) expect(s, city).toMatch(/ FL 33139$/);
    }
  });

  it("names the ZIP code's own city, tidying the street's spaces", () => {
    expect(judgeAddress({ street: '  12   Ocean Ave ', city: 'Miami' }, place)).toEqual({
      isValid: false,
      confidence: 60,
      suggestions: ['12 Ocean Ave, Miami Beach, FL 33139'],
    });
  });

  it('passes a city that matches, in any case and with Saint written St', () => {
    expect(judgeAddress({ street: '12 Ocean Ave', city: 'MIAMI BEACH' }, place).isValid).toBe(true);
    expect(
      judgeAddress({ street: '5 Bay St', city: 'Saint Petersburg' }, { zip: '33701', city: 'St Petersburg', state: 'FL' }).isValid,
    ).toBe(true);
  });

  it('has nothing to suggest for a ZIP code that does not exist', () => {
    expect(judgeAddress({ street: '12 Ocean Ave', city: 'Miami' }, undefined)).toEqual({ isValid: false, confidence: 0, suggestions: [] });
  });
});
