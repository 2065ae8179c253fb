// Dates are shown in long US form, "March 14, 2024", in UTC (docs/architecture.md, "Dates").
// The formatters are marked pure so a browser script that uses one date form carries only that one.
const longUs = /* @__PURE__ */ new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export function longDate(value: Date | string): string {
  return longUs.format(toDate(value));
}

const longUsTime = /* @__PURE__ */ new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** "March 14, 2024 at 9:05 PM UTC": when something happened, to the minute, saying which clock. */
export function longDateTime(value: Date | string): string {
  return longUsTime.format(toDate(value));
}

const shortUs = /* @__PURE__ */ new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Mar 14, 2024": where a column of dates must fit a phone. */
export function shortDate(value: Date | string): string {
  return shortUs.format(toDate(value));
}

/**
 * A database instant as a Date. MySQL hands DATETIME back as a Date; SQLite as text
 * ("2026-11-21 10:00:00", UTC, when the database wrote it) or epoch milliseconds (when the code did).
 */
export function toDate(value: Date | string | number): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  // "2026-11-21 10:00:00" from SQLite is UTC.
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}

/** A DATE column as its calendar day, "2026-11-21": MySQL hands it back as a Date at UTC midnight, SQLite as text. */
export function toDay(value: Date | string): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10);
}

/** Whether `timeZone` is an IANA zone this runtime knows, like "America/New_York". */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar day it is in `timeZone` at `now`, as "2026-11-21". */
export function dayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
