// Money is integer cents in code, DECIMAL(10,2) in the database and "12.99" in the API.
// Dollars become cents only through toCents and cents become text only through toDecimal,
// so no amount is ever multiplied or divided by 100 in floating point. (Sums taken in SQL
// convert there, in lib/portable-sql's centsSum, because the database adds the column.)

export type Cents = number;

/**
 * How far a number may sit from a whole cent and still be read as that cent. A DECIMAL that
 * SQLite hands back is the nearest double to a two-decimal amount (or a sum of a few), never
 * further than a few units in the last place; an amount with a third decimal is at least a
 * thousandth of a dollar away.
 */
const DRIFT = 1e-6;

/**
 * Dollars into cents, exactly: "12.99", "12.9", "12", "-4.50", and the number SQLite returns
 * for a DECIMAL column. The string's digits are read as they are written; nothing is
 * multiplied in floating point. Refuses anything else with a TypeError that says why: a third
 * decimal, an exponent ("1e3"), separators, or an amount too large to count in cents exactly.
 */
export function toCents(value: string | number): Cents {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new TypeError(`Not an amount in dollars and cents, like 12.99: ${JSON.stringify(String(value))}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > 2) throw new TypeError(`An amount has at most two decimals (cents), like 12.99: ${JSON.stringify(text)}`);
  const cents = Number(whole + fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new TypeError(`That amount is too large to count in cents exactly: ${JSON.stringify(text)}`);
  return sign && cents !== 0 ? -cents : cents;
}

/** A number's two-decimal text, refused if it is not (within float drift) a whole number of cents. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`Not an amount in dollars and cents: ${value}`);
  const text = value.toFixed(2);
  // toFixed writes large numbers in exponent form, which the pattern above refuses.
  if (Math.abs(Number(text) - value) > DRIFT) {
    throw new TypeError(`An amount has at most two decimals (cents), like 12.99: ${value}`);
  }
  return text;
}

/** "12.99": the API's and the database's form; the one place cents become text. */
export function toDecimal(cents: Cents): string {
  // A computed fraction of a cent (a rate applied) is rounded half up, never printed.
  const whole = Math.round(Math.abs(cents));
  if (!Number.isSafeInteger(whole)) throw new TypeError(`Not an amount in cents that can be written exactly: ${cents}`);
  const sign = cents < 0 && whole > 0 ? '-' : '';
  const digits = String(whole).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * "$12.99", "$2,099.00": what a parent reads, on pages, in islands and in mail alike. The
 * amount reaches Intl as its exact decimal text, never as dollars in floating point.
 */
export function formatUsd(cents: Cents): string {
  return USD.format(toDecimal(cents) as Intl.StringNumericLiteral);
}

/** formatUsd for an amount already written as the API and the mail data write it ("2099.00"). */
export function formatUsdDecimal(decimal: string): string {
  return formatUsd(toCents(decimal));
}

const USD_BRIEF = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', trailingZeroDisplay: 'stripIfInteger' });

/** "$1,250" or "$1,250.50": a scale's label, grouped, with cents only when there are some. */
export function formatUsdBrief(cents: Cents): string {
  return USD_BRIEF.format(toDecimal(cents) as Intl.StringNumericLiteral);
}
