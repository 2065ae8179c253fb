// Dates are shown in long US format (spec section 9): "March 14, 2024".
const longUs = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export function longDate(value: Date | string): string {
  return longUs.format(toDate(value));
}

const shortUs = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Mar 14, 2024": where a column of dates must fit a phone. */
export function shortDate(value: Date | string): string {
  return shortUs.format(toDate(value));
}

/** SQLite hands DATETIME columns back as text, MySQL as Date objects. */
export function toDate(value: Date | string | number): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  // "2026-11-21 10:00:00" from SQLite is UTC.
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
