import { describe, expect, it } from 'vitest';
import { splitSuggestion } from '../../islands/address-check/AddressCheck.tsx';
import { problemsWith, type CheckoutDetails } from '../../islands/card-form/details.ts';

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
    expect(problemsWith(complete, 'guest')).toBeNull();
  });

  it('takes a gift note of 200 characters as a parent counts them and stops at 201', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(problemsWith({ ...complete, giftNote: family.repeat(200) }, 'account')).toBeNull();
    expect(problemsWith({ ...complete, giftNote: family.repeat(200) + '!' }, 'account')?.problems).toEqual([
      { field: 'giftNote', message: 'Your gift note can be up to 200 characters. Please shorten it.' },
    ]);
  });

  it("names every missing field at once, in the order of the form, under the spec's words", () => {
    const empty = {
      ...complete,
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      confirmPassword: '',
      address: '',
      city: '',
      zipCode: '',
    };
    const refused = problemsWith(empty, 'guest');
    expect(refused?.title).toBe('Missing Information');
    expect(refused?.lead).toBe('Please fill in all required fields');
    expect(refused?.problems.map((p) => p.field)).toEqual(['firstName', 'lastName', 'email', 'password', 'address', 'city', 'zipCode']);
  });

  it.each([
    [{ firstName: '' }, 'firstName', 'Please enter your first name.'],
    [{ email: 'nope' }, 'email', 'Please enter a valid email address'],
    [{ confirmPassword: 'other' }, 'confirmPassword', 'Passwords do not match'],
    [{ password: '123', confirmPassword: '123' }, 'password', 'Password must be at least 6 characters long'],
    [{ city: '' }, 'city', 'Please enter your city.'],
    [{ zipCode: '7870' }, 'zipCode', 'Please enter a 5-digit ZIP code.'],
  ])('stops %o beside its field', (change, field, message) => {
    expect(problemsWith({ ...complete, ...change }, 'guest')?.problems).toEqual([{ field, message }]);
  });

  it('reports a bad email and a short password together', () => {
    expect(problemsWith({ ...complete, email: 'nope', password: '12', confirmPassword: '12' }, 'guest')?.problems).toEqual([
      { field: 'email', message: 'Please enter a valid email address' },
      { field: 'password', message: 'Password must be at least 6 characters long' },
    ]);
  });

  it('asks a signed-in customer only for the address', () => {
    expect(problemsWith({ ...complete, firstName: '', email: '', password: '' }, 'account')).toBeNull();
  });
});
