/**
 * A mailto: link that opens the operator's mail program with the address and "Re: subject"
 * filled. Both parts are percent-encoded (spaces as %20, never "+", which mail programs
 * would show literally); the address keeps its "@" readable.
 */
export function replyHref(email: string, subject: string): string {
  const to = encodeURIComponent(email).replace(/%40/g, '@');
  const re = /^re:/i.test(subject.trim()) ? subject.trim() : `Re: ${subject.trim()}`;
  return `mailto:${to}?subject=${encodeURIComponent(re)}`;
}
