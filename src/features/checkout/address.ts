import { lookupZip, type ZipPlace } from '../pricing/zip.ts';

// Address validation against the ZIP-code database (no network). It checks what can be
// checked offline: the ZIP code exists and belongs to the city. The street is not verified.
//
// A ZIP code that exists is the one thing the parent typed that the database can vouch for, so
// it is never replaced: a city that does not match it is corrected to the ZIP code's own city
// (12 Ocean Ave, Miami, 33139 becomes Miami Beach, FL 33139). Suggesting another ZIP code of the
// typed city would send the parcel to a different street. The database holds one city per ZIP
// code, so that is the one suggestion.

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

export function validateAddress({ address, city, zipCode }: AddressInput): AddressValidation {
  return judgeAddress({ street: address, city }, lookupZip(zipCode.trim()));
}

/** The verdict on a street and city, given the place their ZIP code belongs to (undefined: no such ZIP code). */
export function judgeAddress({ street: typed, city }: { street: string; city: string }, place: ZipPlace | undefined): AddressValidation {
  if (!place) return { isValid: false, confidence: 0, suggestions: [] };
  const street = tidy(typed);
  const streetLooksReal = /\d/.test(street) && /[a-z]{2}/i.test(street);
  const cityMatches = sameCity(place.city, city);
  return {
    isValid: cityMatches && streetLooksReal,
    confidence: Math.min((cityMatches ? 60 : 25) + (streetLooksReal ? 35 : 10), 95),
    suggestions: [format(street, place)],
  };
}

function format(street: string, place: ZipPlace): string {
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
