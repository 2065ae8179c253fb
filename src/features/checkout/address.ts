import { lookupZip, zipsOfCity, type ZipPlace } from '../pricing/zip.ts';

// Address validation against the ZIP-code database (no network). It checks what can be
// checked offline: the ZIP code exists and belongs to the city. The street is not verified.

export interface AddressInput {
  address: string;
  city: string;
  zipCode: string;
}

export interface AddressValidation {
  isValid: boolean;
  /** 0-100. */
  confidence: number;
  /** 'street, city, state zip'. */
  suggestions: string[];
}

const MAX_SUGGESTIONS = 3;

export function validateAddress({ address, city, zipCode }: AddressInput): AddressValidation {
  const street = tidy(address);
  const place = lookupZip(zipCode.trim());
  const streetLooksReal = /\d/.test(street) && /[a-z]{2}/i.test(street);

  if (place) {
    const cityMatches = sameCity(place.city, city);
    const confidence = (cityMatches ? 60 : 25) + (streetLooksReal ? 35 : 10);
    return {
      isValid: cityMatches && streetLooksReal,
      confidence: Math.min(confidence, 95),
      suggestions: cityMatches && streetLooksReal ? [format(street, place)] : suggestFor(street, city, place),
    };
  }
  // An unknown ZIP code: offer the city's own ZIP codes when the city is known in some state.
  return { isValid: false, confidence: 0, suggestions: suggestFor(street, city, undefined) };
}

function suggestFor(street: string, city: string, place: ZipPlace | undefined): string[] {
  const candidates: ZipPlace[] = [];
  if (place) {
    candidates.push(...zipsOfCity(city, place.state));
    candidates.push(place);
  }
  return [...new Map(candidates.map((c) => [format(street, c), c])).keys()].slice(0, MAX_SUGGESTIONS);
}

export function format(street: string, place: ZipPlace): string {
  return `${street}, ${titleCase(place.city)}, ${place.state} ${place.zip}`;
}

function sameCity(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z]/g, '')
      .replace(/^saint/, 'st');
  return norm(a) === norm(b);
}

function tidy(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

function titleCase(text: string): string {
  return text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}
