import { describe, expect, it } from 'vitest';
import { splitSuggestion } from '../../islands/address-check/AddressCheck.tsx';
import { problemWith, type CheckoutDetails } from '../../islands/card-form/details.ts';

const complete: CheckoutDetails = {
  firstName: 'Ada',
  lastName: 'L',
  email: 'ada@example.com',
  password: 'secret1',
  confirmPassword: 'secret1',
  address: '1 Elm St',
  city: 'Austin',
  zipCode: '78701',
  giftNote: '',
  giftRecipient: '',
};

describe('choosing an address suggestion', () => {
  it("splits 'street, city, state zip' into the three fields", () => {
    expect(splitSuggestion('214 Maple Street, Portland, OR 97205')).toEqual({
      address: '214 Maple Street',
      city: 'Portland',
      zipCode: '97205',
    });
  });
});

describe('the checkout form before it is sent', () => {
  it('passes a complete form', () => {
    expect(problemWith(complete, 'guest')).toBeNull();
  });

  it('takes a gift note of 200 characters as a parent counts them and stops at 201', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(problemWith({ ...complete, giftNote: family.repeat(200) }, 'account')).toBeNull();
    expect(problemWith({ ...complete, giftNote: family.repeat(200) + '!' }, 'account')?.title).toBe('Gift Note Too Long');
  });

  it.each([
    [{ firstName: '' }, 'Please fill in all required fields'],
    [{ email: 'nope' }, 'Please enter a valid email address'],
    [{ confirmPassword: 'other' }, 'Passwords do not match'],
    [{ password: '123', confirmPassword: '123' }, 'Password must be at least 6 characters long'],
    [{ city: '' }, 'Please fill in all required fields'],
    [{ zipCode: '7870' }, 'Please enter a 5-digit ZIP code.'],
  ])('stops %o', (change, text) => {
    expect(problemWith({ ...complete, ...change }, 'guest')?.text).toBe(text);
  });

  it('asks a signed-in customer only for the address', () => {
    expect(problemWith({ ...complete, firstName: '', email: '', password: '' }, 'account')).toBeNull();
  });
});
