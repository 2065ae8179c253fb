/**
 * An ISBN-13 as people type it ("978-0-306-40615-7", with spaces or none) into its 13 digits,
 * or null when it is not one: wrong length, other characters, or a check digit that does not match.
 */
export function normaliseIsbn13(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(digits)) return null;
  // Weights alternate 1, 3; the thirteenth digit makes the weighted sum a multiple of 10.
  const sum = [...digits.slice(0, 12)].reduce((total, d, i) => total + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10 === Number(digits[12]) ? digits : null;
}

/** "978-0-306-40615-7": the usual grouping is publisher-specific, so only the prefix is split off. */
export function displayIsbn(digits: string): string {
  return `${digits.slice(0, 3)}-${digits.slice(3)}`;
}
