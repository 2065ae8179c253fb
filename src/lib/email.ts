// The shop's simple pattern for an email address: something@something.something, no spaces.
// Kept free of imports so the browser islands can use it too.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The longest address any form takes: what a mail path allows, and every email column's width. */
export const MAX_EMAIL_LENGTH = 254;
