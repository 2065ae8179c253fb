// Where sign-in sends a parent back to. Only a path on this shop is ever followed: anything a
// browser could read as another site ('//host', '/\host', a scheme, tabs or newlines it
// would strip) is refused, which avoids open-redirect vulnerabilities.

const MAX_LENGTH = 2000;
const BASE = 'http://shop.invalid';

/** `value` when it is a path on this shop, else undefined. */
export function localPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return undefined;
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  // Browsers read '\' as '/' and drop tabs and newlines from URLs: '/\host' and '/\t/host' are hosts.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\\\s\u0000-\u001f\u007f]/.test(value)) return undefined;
  const url = new URL(value, BASE);
  return url.origin === BASE ? value : undefined;
}

/** The sign-in page, carrying the path to come back to. */
export function signInPathFor(path: string): string {
  return `/login?next=${encodeURIComponent(path)}`;
}
