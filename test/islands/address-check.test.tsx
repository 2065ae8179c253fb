// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AddressCheck, zipPlaceNote } from '../../islands/address-check/AddressCheck.tsx';
import { validateAddress, type AddressInput } from '../../src/features/checkout/address.ts';

// 'Validate Address' with a field left empty: 'Missing Information' / 'Please enter a complete
// address first' beside the address fields, each empty one marked and read with it, never a
// toast; and the request is not sent.

let calls: string[];

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push(`${init.method ?? 'GET'} ${url}`);
    if (url === '/api/session') return Response.json({ csrfToken: 't' });
    return Response.json({ isValid: true, confidence: 98, suggestions: [] });
  });
  document.body.innerHTML = `
    <div data-toasts><ol></ol></div>
    <input id="co-address" name="address" value="1120 SW 5th Ave">
    <input id="co-city" name="city">
    <input id="co-zip" name="zipCode" aria-describedby="co-zip-hint"><small id="co-zip-hint">5 digits</small>
    <div id="island"></div>`;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const field = (id: string) => document.getElementById(id) as HTMLInputElement;

function mount() {
  render(<AddressCheck addressId="co-address" cityId="co-city" zipId="co-zip" />, { container: document.getElementById('island')! });
  return screen.getByRole('button', { name: 'Validate Address' });
}

describe('Validate Address with the address incomplete', () => {
  it("says 'Missing Information' beside the fields, marks the empty ones, and sends nothing; no toast", async () => {
    const button = mount();
    button.focus();
    fireEvent.click(button);
    const message = await screen.findByRole('alert');
    expect(message.querySelector('.form-problems-title')?.textContent).toBe('Missing Information');
    expect(message.textContent).toContain('Please enter a complete address first');
    expect(message.classList.contains('form-problems')).toBe(true);
    // Read in full with the fields and the button: no name stands in for it.
    expect(message.hasAttribute('aria-labelledby')).toBe(false);
    expect(button.getAttribute('aria-describedby')).toBe(message.id);
    for (const id of ['co-city', 'co-zip']) expect(field(id).getAttribute('aria-invalid'), id).toBe('true');
    expect(field('co-city').getAttribute('aria-describedby')).toBe(message.id);
    // The hint stays first.
    expect(field('co-zip').getAttribute('aria-describedby')).toBe(`co-zip-hint ${message.id}`);
    expect(field('co-address').hasAttribute('aria-invalid')).toBe(false);
    // The parent is still on the button they pressed.
    expect(document.activeElement).toBe(button);
    expect(calls).toEqual([]);
    expect(document.querySelector('[data-toasts] [data-toast], .toast-error')).toBeNull();
  });

  it('takes each mark away as its field is filled, and the message with the last one', async () => {
    const button = mount();
    fireEvent.click(button);
    await screen.findByRole('alert');
    fireEvent.input(field('co-city'), { target: { value: 'Portland' } });
    expect(field('co-city').hasAttribute('aria-invalid')).toBe(false);
    expect(field('co-city').hasAttribute('aria-describedby')).toBe(false);
    expect(field('co-zip').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert')).toBeTruthy();
    fireEvent.input(field('co-zip'), { target: { value: '97205' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field('co-zip').getAttribute('aria-describedby')).toBe('co-zip-hint');
    expect(button.hasAttribute('aria-describedby')).toBe(false);

    fireEvent.click(button);
    await screen.findByText('Address verified (98% confidence).');
    expect(calls).toContain('POST /api/validate-address');
  });
});

describe('Validate Address with a ZIP code that exists and a city that does not match it', () => {
  // The server's own rule answers, so the island is tested against what /api/validate-address says.
  beforeEach(() => {
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? 'GET'} ${url}`);
      if (url === '/api/session') return Response.json({ csrfToken: 't' });
      return Response.json(validateAddress(JSON.parse(init.body as string) as AddressInput));
    });
  });

  function typeAddress(address: string, city: string, zipCode: string) {
    fireEvent.input(field('co-address'), { target: { value: address } });
    fireEvent.input(field('co-city'), { target: { value: city } });
    fireEvent.input(field('co-zip'), { target: { value: zipCode } });
  }

  it("keeps 33139 and offers Miami Beach, the ZIP code's own city; choosing it changes only the city", async () => {
    const button = mount();
    typeAddress('12 Ocean Ave', 'Miami', '33139');
    fireEvent.click(button);
    await screen.findByText('Address Verification Failed');
    expect(screen.getByText('ZIP code 33139 is in Miami Beach, FL.')).toBeTruthy();
    const offered = screen.getAllByRole('button').filter((b) => b !== button);
    expect(offered.map((b) => b.textContent)).toEqual(['12 Ocean Ave, Miami Beach, FL 33139']);
    fireEvent.click(offered[0]!);
    expect([field('co-address').value, field('co-city').value, field('co-zip').value]).toEqual(['12 Ocean Ave', 'Miami Beach', '33139']);
    expect(await screen.findByText('Address verified (100% confidence).')).toBeTruthy();
  });

  it('verifies a city and ZIP code that belong together, with nothing to choose', async () => {
    const button = mount();
    typeAddress('12 Ocean Ave', 'Miami Beach', '33139');
    fireEvent.click(button);
    await screen.findByText('Address verified (95% confidence).');
    expect(screen.queryByText('Did you mean:')).toBeNull();
    expect(screen.queryByText(/^ZIP code/)).toBeNull();
  });

  it('says the address could not be verified for a ZIP code that does not exist, with nothing to choose', async () => {
    const button = mount();
    typeAddress('12 Ocean Ave', 'Miami', '00000');
    fireEvent.click(button);
    await screen.findByText('Address Verification Failed');
    expect(screen.queryByText('Did you mean:')).toBeNull();
    expect(screen.getAllByRole('button')).toEqual([button]);
  });
});

describe('zipPlaceNote', () => {
  it.each([
    [{ city: 'Miami', zipCode: '33139' }, ['12 Ocean Ave, Miami Beach, FL 33139'], 'ZIP code 33139 is in Miami Beach, FL.'],
    [{ city: 'miami beach', zipCode: '33139' }, ['12 Ocean Ave, Miami Beach, FL 33139'], null],
    [{ city: 'Miami', zipCode: '33101' }, ['12 Ocean Ave, Miami Beach, FL 33139'], null],
    [{ city: 'Miami', zipCode: '33139' }, [], null],
  ])('%o with %o: %s', (typed, suggestions, expected) => {
    expect(zipPlaceNote(typed, suggestions)).toBe(expected);
  });
});
