/**
 * The name to greet someone by in mail sent to an address nobody has verified (a sign-up's
 * welcome, a contact form's acknowledgement). Whatever a stranger typed would otherwise go
 * out under the shop's name, so only something that reads as a plain name is used: letters,
 * spaces, hyphens, apostrophes and full stops, short. Anything else greets no one by name.
 */
const PLAIN_NAME = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]{0,39}$/u;

export function greetingName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  // A full stop between letters ("evil.example") reads as an address, not a name.
  return PLAIN_NAME.test(trimmed) && !/\p{L}\.\p{L}/u.test(trimmed) ? trimmed : '';
}
