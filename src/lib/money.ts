// Money is integer cents in code, DECIMAL(10,2) in the database and "12.99" in the API.

export type Cents = number;

/** Parses a database DECIMAL (a string from MySQL, a number from SQLite) exactly into cents. */
export function toCents(value: string | number): Cents {
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d{1,2})\d*)?$/.exec(text);
  if (!match) throw new TypeError(`Not a money amount: ${String(value)}`);
  const [, sign, whole, fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign ? -cents : cents;
}

/** "12.99": the API's and the database's form; the one place cents become text. */
export function toDecimal(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  // A computed fraction of a cent (a rate applied) is rounded half up, never printed.
  const abs = Math.round(Math.abs(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "$12.99": what a parent reads. */
export function formatUsd(cents: Cents): string {
  return cents < 0 ? `-$${toDecimal(-cents)}` : `$${toDecimal(cents)}`;
}
