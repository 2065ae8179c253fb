import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, inboxOf, mailDomainOf } from '../../src/lib/email.ts';

// Every per-recipient mail cap counts the inbox an address reaches, not the way it is spelt.
describe('inboxOf', () => {
  it('folds letter case and surrounding spaces', () => {
    for (const spelling of ['victim@example.org', 'VICTIM@EXAMPLE.ORG', 'Victim@Example.Org', '  victim@example.org ']) {
      expect(inboxOf(spelling)).toBe('victim@example.org');
    }
  });

  it('removes a +tag at every domain, keeping the dots outside Gmail', () => {
    expect(inboxOf('victim+1@example.org')).toBe('victim@example.org');
    expect(inboxOf('victim+books+more@example.org')).toBe('victim@example.org');
    expect(inboxOf('Victim+@Example.org')).toBe('victim@example.org');
    expect(inboxOf('o.brien+kids@example.com')).toBe('o.brien@example.com');
    expect(inboxOf('o.brien@example.com')).not.toBe(inboxOf('obrien@example.com'));
  });

  it('removes dots at gmail.com and googlemail.com, which become one domain', () => {
    for (const spelling of [
      'victim@gmail.com',
      'v.ictim@gmail.com',
      'v.i.c.t.i.m@gmail.com',
      '.victim.@gmail.com',
      'V.Ictim+tag@GMail.com',
      'victim@googlemail.com',
      'vic.tim+2@GoogleMail.com',
    ]) {
      expect(inboxOf(spelling), spelling).toBe('victim@gmail.com');
    }
  });

  it('drops a trailing dot of the domain, quotes and backslashes in the name, which reach the same inbox', () => {
    expect(inboxOf('victim@example.org.')).toBe('victim@example.org');
    expect(inboxOf('v.ictim@gmail.com.')).toBe('victim@gmail.com');
    expect(inboxOf('"victim"@example.org')).toBe('victim@example.org');
    expect(inboxOf('"vic\\tim+x"@gmail.com')).toBe('victim@gmail.com');
  });

  it('keeps different people apart', () => {
    expect(inboxOf('victim@example.org')).not.toBe(inboxOf('victim@example.net'));
    expect(inboxOf('victim@gmail.com')).not.toBe(inboxOf('victim@gmail.co'));
    expect(inboxOf('victim@mail.gmail.com')).toBe('victim@mail.gmail.com');
    expect(inboxOf('vic.tim@example.org')).not.toBe(inboxOf('victim@example.org'));
  });

  it('gives a key for any text the pattern lets through, and for text that is no address, without throwing', () => {
    for (const odd of [
      '+@example.com',
      '.@gmail.com',
      '+tag@gmail.com',
      'a@b@example.com',
      '@',
      '',
      'no-at-sign',
      '...',
      '\u0130@example.com',
    ]) {
      expect(typeof inboxOf(odd)).toBe('string');
    }
    expect(inboxOf('+a@example.com')).toBe(inboxOf('+b@example.com'));
    expect(inboxOf('a@b@example.com')).toBe('a@b@example.com');
    expect(EMAIL_PATTERN.test('victim@gmail.com.')).toBe(true);
  });

  it('is stable: the inbox of an inbox is itself', () => {
    for (const spelling of ['V.ictim+1@googlemail.com', 'a.b+c@Example.org.', '"x"@y.z']) {
      expect(inboxOf(inboxOf(spelling))).toBe(inboxOf(spelling));
    }
  });
});

describe('mailDomainOf', () => {
  it('names the domain the inbox is at', () => {
    expect(mailDomainOf('V.ictim+1@GoogleMail.com')).toBe('gmail.com');
    expect(mailDomainOf('someone@Example.org.')).toBe('example.org');
    expect(mailDomainOf('no-at-sign')).toBe('no-at-sign');
  });
});
