import { describe, expect, it } from 'vitest';
import { replyHref } from '../../../../src/features/admin/inbox/inbox.reply.ts';
import { isUrgent } from '../../../../src/models/ContactMessage.ts';

describe('replyHref', () => {
  it('fills the address and "Re: subject", percent-encoded', () => {
    expect(replyHref('maya.lee@example.com', 'Order question')).toBe('mailto:maya.lee@example.com?subject=Re%3A%20Order%20question');
  });

  it('encodes characters that would break the link or change its meaning', () => {
    const href = replyHref('o.brien+kids@example.com', 'Lost? 50% off & more #2\nnext line');
    expect(href).toBe('mailto:o.brien%2Bkids@example.com?subject=Re%3A%20Lost%3F%2050%25%20off%20%26%20more%20%232%0Anext%20line');
    const url = new URL(href);
    expect(decodeURIComponent(url.pathname)).toBe('o.brien+kids@example.com');
    expect(url.searchParams.get('subject')).toBe('Re: Lost? 50% off & more #2\nnext line');
  });

  it('does not stack a second "Re:"', () => {
    expect(replyHref('a@example.com', 'RE: your reply')).toBe('mailto:a@example.com?subject=RE%3A%20your%20reply');
  });
});

describe('isUrgent', () => {
  it.each([
    ['URGENT: wrong book', true],
    ['please, urgent', true],
    ['Not-so-Urgent question', true],
    ['Order question', false],
  ])('%s -> %s', (subject, urgent) => {
    expect(isUrgent(subject)).toBe(urgent);
  });
});
