// Dates are shown in long US format (spec section 9): "March 14, 2024".
const longUs = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export function longDate(value: Date | string): string {
  const date = typeof value === 'string' ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  return longUs.format(date);
}
