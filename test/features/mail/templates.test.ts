import { describe, expect, it } from 'vitest';
import { mailTemplates, type MailData, type MailTemplate } from '../../../src/features/mail/mail.types.ts';
import { createMailRenderer } from '../../../src/features/mail/templates.ts';
import { orderStory } from '../../../src/features/orders/order-story.ts';

const renderer = createMailRenderer({ baseUrl: 'https://shop.example.com', cache: false });

/** Sample data for each template and what its message must show (in both parts). */
const samples: { [T in MailTemplate]: { data: MailData[T]; subject: string; shows: string[] } } = {
  welcome: {
    data: { firstName: 'Maya' },
    subject: 'Welcome to Little Lantern Books',
    shows: ['Maya', 'https://shop.example.com/'],
  },
  'temporary-password': {
    data: {
      firstName: 'Sam',
      temporaryPassword: 'tq7-Lm2-Xp9',
      loginUrl: 'https://shop.example.com/login',
      expiresInHours: 24,
      failedAttempts: 5,
      securedAt: 'November 21, 2026 at 9:05 PM UTC',
      resetUrl: 'https://shop.example.com/reset-password',
    },
    subject: 'We secured your account after failed sign-ins',
    // It says why (failed sign-ins), when, and what to do if it was not the parent; it never
    // suggests the parent asked for a new password.
    shows: [
      'Sam',
      'tq7-Lm2-Xp9',
      'https://shop.example.com/login',
      '24 hours',
      '5 times in a row',
      'November 21, 2026 at 9:05 PM UTC',
      'Was it not you?',
      'https://shop.example.com/reset-password',
      'choose a new password you do not use on any other site',
    ],
  },
  'reset-link': {
    data: { firstName: 'Lee', resetUrl: 'https://shop.example.com/reset-password/s3cr3t', expiresInMinutes: 30 },
    subject: 'Reset your Little Lantern Books password',
    shows: ['Lee', 'https://shop.example.com/reset-password/s3cr3t', '30 minutes'],
  },
  'password-changed': {
    data: { firstName: 'Ana', contactUrl: 'https://shop.example.com/contact' },
    subject: 'Your password was changed',
    shows: ['Ana', 'https://shop.example.com/contact'],
  },
  'order-confirmation': {
    data: {
      firstName: 'Ruth',
      orderId: 42,
      items: [
        { title: 'The Lantern in the Wood', quantity: 2, price: '12.99' },
        { title: 'Owl Goes to Sea', quantity: 1, price: '9.50' },
      ],
      subtotal: '35.48',
      discount: '3.55',
      discountCode: 'WINTER-10',
      shipping: '4.99',
      handling: '1.00',
      tax: '2.84',
      total: '44.31',
      shippingAddress: '12 Maple Lane',
      city: 'Portland',
      zipCode: '97201',
      orderUrl: '/orders/42',
      story: orderStory({ id: 42, status: 'succeeded' }),
    },
    subject: 'Your order #42 is confirmed',
    shows: [
      'Ruth',
      '#42',
      'Order Confirmed!',
      'Thank you! Your books will ship within 1-2 business days.',
      'The Lantern in the Wood',
      'Owl Goes to Sea',
      '$12.99',
      '$25.98',
      '$9.50',
      '$35.48',
      'Discount (WINTER-10)',
      '-$3.55',
      '$4.99',
      '$1.00',
      '$2.84',
      '$44.31',
      '12 Maple Lane',
      'Portland',
      '97201',
      'https://shop.example.com/orders/42',
    ],
  },
  'order-refunded': {
    data: { firstName: 'Omar', orderId: 17, total: '23.98', reason: 'The book is out of print' },
    subject: 'About your order #17: refunded',
    shows: ['Omar', '#17', '$23.98', 'The book is out of print'],
  },
  'order-shipped': {
    data: {
      firstName: 'Mia',
      orderId: 21,
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
      trackingLink: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      estimatedDelivery: 'December 2, 2026',
      orderUrl: '/order-confirmation?orderId=21',
    },
    subject: 'Your order #21 is on its way',
    shows: ['Mia', '#21', 'UPS', '1Z999AA10123456784', 'https://www.ups.com/track?tracknum=1Z999AA10123456784', 'December 2, 2026'],
  },
  'order-canceled': {
    data: { firstName: 'Leo', orderId: 22, refunded: '31.48' },
    subject: 'Your order #22 was canceled and refunded',
    shows: ['Leo', '#22', '$31.48'],
  },
  'order-partial-refund': {
    data: { firstName: 'Ada', orderId: 23, amount: '5.00', reason: 'Cover arrived bent', refundedTotal: '5.00' },
    subject: 'A refund on your order #23',
    shows: ['Ada', '#23', '$5.00', 'Cover arrived bent'],
  },
  'contact-received': {
    data: { firstName: 'Ivy' },
    subject: 'We received your message',
    shows: ['Ivy', 'within 24 hours'],
  },
  'back-in-stock-waiting': {
    data: { title: 'The Night Garden', bookUrl: '/books/7', unsubscribeUrl: '/notify/unsubscribe?token=abc' },
    subject: 'We will email you when The Night Garden is back',
    shows: ['The Night Garden', '/books/7', '/notify/unsubscribe?token=abc'],
  },
  'back-in-stock': {
    data: { title: 'The Night Garden', bookUrl: '/books/7', unsubscribeUrl: '/notify/unsubscribe?token=abc' },
    subject: 'The Night Garden is back in stock',
    shows: ['The Night Garden', '/books/7', '/notify/unsubscribe?token=abc'],
  },
  'shop-new-order': {
    data: {
      orderId: 42,
      customerName: 'Ruth Mills',
      customerEmail: 'ruth@example.com',
      items: [{ title: 'Owl Goes to Sea', quantity: 2, price: '9.50' }],
      total: '23.99',
      shippingAddress: '12 Maple Lane',
      city: 'Portland',
      state: 'OR',
      zipCode: '97201',
      adminUrl: '/admin/orders/42',
      giftSlipUrl: '/admin/orders/42/gift-slip',
    },
    subject: 'New order #42: $23.99 from Ruth Mills',
    shows: [
      '#42',
      'Ruth Mills',
      'ruth@example.com',
      'Owl Goes to Sea',
      '$9.50',
      '$19.00',
      '$23.99',
      '12 Maple Lane',
      'Portland, OR 97201',
      'https://shop.example.com/admin/orders/42',
      'gift slip',
      '/admin/orders/42/gift-slip',
    ],
  },
  'shop-new-message': {
    data: {
      fromName: 'Maya Lee',
      fromEmail: 'maya@example.com',
      member: true,
      messageSubject: 'urgent: wrong book arrived',
      message: 'We received Moon Soup twice.',
      urgent: true,
      inboxUrl: '/admin/inbox',
    },
    subject: 'URGENT: New message from Maya Lee: urgent: wrong book arrived',
    shows: [
      'Maya Lee',
      'maya@example.com',
      'Member',
      'Yes',
      'urgent: wrong book arrived',
      'We received Moon Soup twice.',
      'URGENT',
      'https://shop.example.com/admin/inbox',
    ],
  },
};

describe('mail templates', () => {
  it('has a sample for every template', () => {
    expect(Object.keys(samples).sort()).toEqual([...mailTemplates].sort());
  });

  const renderSample = <T extends MailTemplate>(template: T) => renderer.render(template, samples[template].data);

  describe.each([...mailTemplates])('%s', (template) => {
    const sample = samples[template];
    const mail = renderSample(template);

    it('has its subject', () => {
      expect(mail.subject).toBe(sample.subject);
    });

    it('shows its data in the text and the HTML part', () => {
      for (const value of sample.shows) {
        expect(mail.text).toContain(value);
        expect(mail.html).toContain(value);
      }
    });

    it('ends with the shop name and says it is automated', () => {
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain('Little Lantern Books');
        expect(part).toContain('This is an automated message.');
      }
      expect(mail.text.trimEnd().split('\n').at(-1)).toContain('automated message');
      expect(mail.text).not.toMatch(/undefined|\[object Object\]/);
      expect(mail.html).not.toMatch(/undefined|\[object Object\]/);
    });

    it('is a complete HTML document in the brand colours with only absolute links', () => {
      expect(mail.html).toMatch(/^<!DOCTYPE html>/);
      expect(mail.html).toContain('</html>');
      expect(mail.html).toContain(`<title>${mail.subject.replace(/&/g, '&amp;')}</title>`);
      for (const colour of ['#1f5f5b', '#f2a541', '#fff8ec']) expect(mail.html).toContain(colour);
      const hrefs = [...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
      expect(hrefs.length).toBeGreaterThan(0);
      // The shop's own links, or a carrier's tracking page (the shipped email).
      for (const href of hrefs) expect(href).toMatch(/^https:\/\/(shop\.example\.com|www\.ups\.com)\//);
    });
  });

  it('escapes data in the HTML part but not in the text part', () => {
    const mail = renderer.render('order-refunded', { firstName: 'Bo <script>', orderId: 3, total: '1.00', reason: 'Tom & Jerry "books"' });
    expect(mail.html).toContain('Bo &lt;script&gt;');
    expect(mail.html).toContain('Tom &amp; Jerry &quot;books&quot;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain('Bo <script>');
    expect(mail.text).toContain('Tom & Jerry "books"');
  });

  it('makes relative links absolute against a base with a path', () => {
    const nested = createMailRenderer({ baseUrl: 'https://example.com/shop/', cache: false });
    const mail = nested.render('password-changed', { firstName: 'Ana', contactUrl: '/contact' });
    expect(mail.text).toContain('https://example.com/shop/contact');
    expect(mail.html).toContain('href="https://example.com/shop/contact"');
  });
});
