import { describe, expect, it } from 'vitest';
import { greetingName } from '../../../src/features/mail/greeting.ts';

describe('the name mail to an unverified address greets', () => {
  it.each(['Maya', 'Anne-Marie', "O'Neil", 'José Luis', 'Zoë', '  Amara  '])('keeps the plain name %j', (name) => {
    expect(greetingName(name)).toBe(name.trim());
  });

  it.each(['www.evil.example', 'Visit http://x', 'Win $1000', 'a@b', 'Maya <b>', '123', 'x'.repeat(41), ''])('drops %j', (name) => {
    expect(greetingName(name)).toBe('');
  });
});
