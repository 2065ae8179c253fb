// The shop's simple pattern for an email address: something@something.something, no spaces.
// Kept free of imports so the browser islands can use it too.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The longest address any form takes: what a mail path allows, and every email column's width. */
export const MAX_EMAIL_LENGTH = 254;

// Mail providers deliver many spellings of an address to one inbox: any letter case,
// `name+anything@`, and at Gmail dots anywhere in the name and the googlemail.com domain.
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The inbox an address reaches, as one key for every per-recipient mail cap and for "already
 * asked": lower-cased, quotes and backslashes taken out of the name, `+tag` removed whatever
 * the domain, dots removed from the name at gmail.com and googlemail.com (which becomes
 * gmail.com), a trailing dot of the domain dropped. Any text gives a key, even one that is no
 * address. Mail still goes to the address as it was typed.
 */
export function inboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  let name = address.slice(0, at).replace(/["\\]/g, '');
  let domain = address.slice(at + 1).replace(/\.+$/, '');
  const plus = name.indexOf('+');
  if (plus >= 0) name = name.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    domain = dotless;
    name = name.replaceAll('.', '');
  }
  return `${name}@${domain}`;
}

/** The domain part of an address or inbox, lower-cased: the key of the cap per recipient domain. */
export function mailDomainOf(email: string): string {
  const inbox = inboxOf(email);
  return inbox.slice(inbox.lastIndexOf('@') + 1);
}
