import { createHash } from 'node:crypto';
import type { Counter } from './throttle.ts';

// The throttles table's key column holds 191 characters, its prefix included; a key built
// from an email can be up to 254 on its own. Longer keys are stored as a hash, keeping the
// kind ('login-account:') readable: still one key per email, and any length fits.
const MAX_PLAIN_KEY = 120;

export function storedKey(key: string): string {
  if (key.length <= MAX_PLAIN_KEY) return key;
  const kind = key.slice(0, key.indexOf(':') + 1).slice(0, 40);
  return `${kind}sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** The same counter, with every key passed through storedKey. */
export function withStoredKeys(counter: Counter): Counter {
  return {
    hit: (key, windowMs) => counter.hit(storedKey(key), windowMs),
    peek: (key) => counter.peek(storedKey(key)),
    reset: (key) => counter.reset(storedKey(key)),
  };
}
