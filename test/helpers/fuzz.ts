// Malformed input from a seeded generator: the same seed makes the same requests, so a
// failure found once can be replayed (FUZZ_SEED=... npx vitest run test/web/fuzz.test.ts).

export type Rng = () => number;

/** mulberry32: small, fast and good enough to spread test inputs. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
export const chance = (rng: Rng, p: number): boolean => rng() < p;

const EDGE_NUMBERS = [
  0,
  -0,
  -1,
  1,
  1.5,
  -1.5,
  2 ** 31,
  -(2 ** 31),
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  1e308,
  -1e308,
  5e-324,
  10_001,
  99_999_999_999,
];

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'null',
  'undefined',
  'true',
  '1',
  ' 1 ',
  '1e3',
  '0x10',
  '-0',
  'Infinity',
  'NaN',
  '[object Object]',
  '__proto__',
  "' OR '1'='1",
  '1; DROP TABLE books; --',
  '<script>alert(1)</script>',
  '{{7*7}}<%= 7*7 %>',
  '../../etc/passwd',
  '%00%2e%2e',
  'İİİİ',
  '\u202eevil',
  '👩‍👩‍👧‍👦📚',
  '\ud800',
  'ﷺ'.repeat(50),
  'Ω≈ç√∫˜µ≤≥÷',
  '\r\n\t',
  'a@b',
  '@@',
  'x@example.com\r\nBcc: y@example.com',
];

const UNICODE_RANGES: Array<[number, number]> = [
  [0x20, 0x7e],
  [0xa0, 0x24f],
  [0x370, 0x3ff],
  [0x4e00, 0x4fff],
  [0x1f300, 0x1f6ff],
  [0x0, 0x1f],
];

function randomString(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) {
    const [lo, hi] = pick(rng, UNICODE_RANGES);
    out += String.fromCodePoint(lo + Math.floor(rng() * (hi - lo + 1)));
  }
  return out;
}

/** A string no sensible client sends: odd, long, or in another script. */
export function junkString(rng: Rng): string {
  const r = rng();
  if (r < 0.4) return pick(rng, ODD_STRINGS);
  if (r < 0.8) return randomString(rng, 1 + Math.floor(rng() * 40));
  if (r < 0.97) return pick(rng, ['x', '9', 'é', '📚']).repeat(200 + Math.floor(rng() * 4000));
  // Past the body limit: the parser refuses it before any route sees it.
  return 'y'.repeat(20_000);
}

/** Any JSON value, weighted towards the shapes that trip parsers and coercion. */
export function junkValue(rng: Rng, depth = 0): unknown {
  const r = rng();
  if (r < 0.3) return junkString(rng);
  if (r < 0.5) return pick(rng, EDGE_NUMBERS);
  if (r < 0.6) return pick(rng, [true, false, null]);
  if (r < 0.8 || depth > 3) {
    if (depth > 3) return pick(rng, [[], {}, null]);
    return Array.from({ length: Math.floor(rng() * 4) }, () => junkValue(rng, depth + 1));
  }
  return junkObject(rng, depth + 1);
}

/** Keys that have broken naive merges: they must stay plain data. */
export const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'isAdmin', 'role', 'userId'];

export function junkObject(rng: Rng, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = Math.floor(rng() * 4);
  for (let i = 0; i < n; i += 1) {
    const key = chance(rng, 0.5) ? pick(rng, POLLUTING_KEYS) : junkString(rng).slice(0, 30);
    out[key] = junkValue(rng, depth + 1);
  }
  return out;
}

/** An object nested far deeper than any real request. */
export function deeplyNested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i += 1) value = i % 2 ? { a: value } : [value];
  return value;
}

/**
 * A template's fields, some replaced by junk, some dropped, some polluting keys added.
 * `keep` names fields left as they are; a route's guard breaks what must stay broken.
 */
export function mutate(rng: Rng, template: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...template };
  for (const key of Object.keys(template)) {
    const r = rng();
    if (r < 0.3) delete out[key];
    else if (r < 0.7) out[key] = junkValue(rng);
    else if (r < 0.8 && typeof template[key] === 'object' && template[key] !== null) {
      out[key] = mutate(rng, template[key] as Record<string, unknown>);
    }
  }
  return out;
}

const POLLUTION = '"__proto__":{"polluted":true,"isAdmin":true},"constructor":{"prototype":{"polluted":true}}';

/**
 * The JSON text of a body, sometimes with "__proto__" and "constructor" as its own keys, as
 * a hostile client would send them (JSON.stringify could never write them).
 */
export function toJsonText(rng: Rng, body: unknown): string {
  const text = JSON.stringify(body) ?? 'null';
  if (!chance(rng, 0.25) || !text.startsWith('{')) return text;
  return text === '{}' ? `{${POLLUTION}}` : `{${POLLUTION},${text.slice(1)}`;
}

/** Bodies that are not JSON at all, or not what they claim to be. */
export const RAW_BODIES: Array<{ type: string; text: string }> = [
  { type: 'application/json', text: '{"bookId": 1,' },
  { type: 'application/json', text: "{'bookId': 1}" },
  { type: 'application/json', text: '{"a":1}{"b":2}' },
  { type: 'application/json', text: 'NaN' },
  { type: 'application/json', text: '' },
  { type: 'application/json', text: '\u0000' },
  { type: 'application/json; charset=utf-16', text: '{"bookId": 1}' },
  { type: 'application/json; charset=latin-99', text: '{"bookId": 1}' },
  { type: 'text/plain', text: 'bookId=1' },
  { type: 'application/x-www-form-urlencoded', text: 'bookId[]=1&bookId[]=2&quantity=%00' },
  { type: 'application/x-www-form-urlencoded', text: '__proto__[polluted]=1&constructor[prototype][polluted]=1' },
  { type: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
  { type: 'application/xml', text: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b SYSTEM "file:///etc/passwd">]><a>&b;</a>' },
];
