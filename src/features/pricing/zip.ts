import { createRequire } from 'node:module';
import type Zipcodes from 'zipcodes';

// The ZIP-code database ships inside the zipcodes package: no network at run time.
// It is a large script that costs a lot of memory to load, so it is loaded on the first
// lookup (an address being checked) rather than at start-up: a process that only serves the
// catalogue, and every process while idle, stays small (bench/results.md has the idle memory).
let database: typeof Zipcodes | undefined;
function zipcodes(): typeof Zipcodes {
  database ??= createRequire(import.meta.url)('zipcodes') as typeof Zipcodes;
  return database;
}

export interface ZipPlace {
  zip: string;
  city: string;
  state: string;
}

export function lookupZip(zip: string): ZipPlace | undefined {
  if (!/^\d{5}$/.test(zip)) return undefined;
  const place = zipcodes().lookup(zip);
  return place ? { zip: place.zip, city: place.city, state: place.state } : undefined;
}
