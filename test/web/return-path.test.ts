import { describe, expect, it } from 'vitest';
import { localPath, signInPathFor } from '../../src/web/return-path.ts';

describe('localPath', () => {
  it.each(['/order-confirmation?orderId=42', '/dashboard', '/books/3#reviews', '/'])('keeps the shop path %s', (path) => {
    expect(localPath(path)).toBe(path);
  });

  it.each([
    '//evil.example/steal',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example/',
    'http:/evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' //evil.example',
    '/%09/evil.example\\',
    '',
    undefined,
    42,
    ['/dashboard'],
    `/${'a'.repeat(2100)}`,
  ])('refuses %j', (value) => {
    expect(localPath(value)).toBeUndefined();
  });
});

describe('signInPathFor', () => {
  it('sends to the sign-in page with the path to come back to', () => {
    expect(signInPathFor('/order-confirmation?orderId=42')).toBe('/login?next=%2Forder-confirmation%3ForderId%3D42');
  });
});
