// The spec's "simple pattern" for an email address: something@something.something, no spaces.
// Kept free of imports so the browser islands can use it too.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
