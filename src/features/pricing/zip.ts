import zipcodes from 'zipcodes';

// The ZIP-code database ships inside the zipcodes package: no network at run time.

export interface ZipPlace {
  zip: string;
  city: string;
  state: string;
}

export function lookupZip(zip: string): ZipPlace | undefined {
  if (!/^\d{5}$/.test(zip)) return undefined;
  const place = zipcodes.lookup(zip);
  return place ? { zip: place.zip, city: place.city, state: place.state } : undefined;
}

/** ZIP codes of a city in a state, for suggestions when a ZIP code and city disagree. */
export function zipsOfCity(city: string, state: string): ZipPlace[] {
  return (zipcodes.lookupByName(city, state) ?? []).map((p) => ({ zip: p.zip, city: p.city, state: p.state }));
}
