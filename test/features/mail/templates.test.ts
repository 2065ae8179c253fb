import { describe, expect, it } from 'vitest';
import { mailTemplates, type MailData, type MailTemplate } from '../../../src/features/mail/mail.types.ts';
import { createMailRenderer } from '../../../src/features/mail/templates.ts';
import { orderStory, refundedSentence } from '../../../src/features/orders/order-story.ts';

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
      story: orderStory({
        id: 21,
        status: 'shipped',
        carrier: 'UPS',
        trackingNumber: '1Z999AA10123456784',
        estimatedDelivery: '2026-12-02',
      }),
    },
    subject: 'Your order #21 is on its way',
    shows: [
      'Mia',
      '#21',
      'UPS',
      '1Z999AA10123456784',
      'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      'December 2, 2026',
      'Your Order Is on Its Way',
      'Good news: order #21 has shipped with UPS. Its tracking number is 1Z999AA10123456784.',
      'It should arrive by December 2, 2026.',
    ],
  },
  'order-canceled': {
    data: {
      firstName: 'Leo',
      orderId: 22,
      refunded: '2099.00',
      story: orderStory({ id: 22, status: 'canceled', refundedAmount: '2099.00' }),
    },
    subject: 'Your order #22 was canceled and refunded',
    shows: [
      'Leo',
      '#22',
      'Order Canceled',
      'Order #22 was canceled and $2,099.00 was refunded to your card.',
      'Depending on your bank, a refund can take 5 to 10 business days to appear on your statement.',
    ],
  },
  'order-partial-refund': {
    data: { firstName: 'Ada', orderId: 23, amount: '5.00', reason: 'Cover arrived bent', refundedSoFar: refundedSentence('12.50') },
    subject: 'A refund on your order #23',
    shows: ['Ada', '#23', '$5.00', 'Cover arrived bent', 'A refund on your order #23', '$12.50 of this order was refunded to your card.'],
  },
  'preorder-date-moved': {
    data: {
      firstName: 'Nell',
      orderId: 31,
      title: 'The Snow Fox',
      previousDate: 'March 2, 2027',
      newDate: 'April 6, 2027',
      story: orderStory({ id: 31, status: 'preordered', shipsOn: '2027-04-06' }),
      orderUrl: '/order-confirmation?orderId=31',
      cancelUrl: '/preorders/cancel?token=31.8.abc',
    },
    subject: 'The Snow Fox has a new date: about your pre-order #31',
    shows: [
      'Nell',
      '#31',
      'The Snow Fox',
      'will now be out on',
      'April 6, 2027',
      'instead of March 2, 2027',
      'Pre-ordered: we will send it as soon as it is out on April 6, 2027.',
      'https://shop.example.com/order-confirmation?orderId=31',
      'https://shop.example.com/preorders/cancel?token=31.8.abc',
      'refunded in full',
    ],
  },
  'contact-received': {
    data: { firstName: 'Ivy' },
    subject: 'We received your message',
    shows: ['Ivy', 'within 24 hours'],
  },
  'account-deleted': {
    data: { firstName: 'Ivy', ordersKept: 3 },
    subject: 'Your Little Lantern Books account has been deleted',
    shows: ['Ivy', 'We keep your 3 orders for tax and accounting', 'the last email we send to this address'],
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
      preorderShipsOn: null,
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

  describe("an order's status emails tell the story of the order's page", () => {
    /** The message's heading: the HTML part's h1, the text part's first line. */
    const headings = (mail: { text: string; html: string }) => ({
      html: /<h1[^>]*>([^<]*)<\/h1>/.exec(mail.html)?.[1],
      text: mail.text.split('\n')[0],
    });
    const showsEverySentence = (mail: { text: string; html: string }, sentences: string[]) => {
      for (const sentence of sentences) {
        expect(mail.text).toContain(sentence);
        expect(mail.html).toContain(`>${sentence}</p>`);
      }
    };

    it('shipped: the heading of a shipped order, its carrier, tracking number and day', () => {
      const story = orderStory({
        id: 21,
        status: 'shipped',
        carrier: 'FedEx',
        trackingNumber: '7712 3456 7890',
        estimatedDelivery: '2026-12-03',
      });
      const mail = renderer.render('order-shipped', {
        ...samples['order-shipped'].data,
        carrier: 'FedEx',
        trackingNumber: '7712 3456 7890',
        story,
      });
      expect(headings(mail)).toEqual({ html: story.heading, text: story.heading });
      expect(story.heading).toBe('Your Order Is on Its Way');
      showsEverySentence(mail, story.sentences);
      expect(story.sentences).toContain('Good news: order #21 has shipped with FedEx. Its tracking number is 7712 3456 7890.');
      // The old heading of its own is gone; the subject, which says the same, stays.
      expect(mail.html).not.toContain('Your order #21 is on its way</h1>');
      expect(mail.subject).toBe('Your order #21 is on its way');
    });

    it('shipped after a partial refund: says what was given back, as the page does', () => {
      const story = orderStory({ id: 21, status: 'shipped', carrier: 'UPS', trackingNumber: '1Z9', refundedAmount: '5.00' });
      const mail = renderer.render('order-shipped', { ...samples['order-shipped'].data, story });
      showsEverySentence(mail, story.sentences);
      expect(mail.text).toContain('$5.00 of this order was refunded to your card.');
    });

    it('canceled: the heading of a canceled order and the amount refunded, never a celebration', () => {
      const story = orderStory({ id: 22, status: 'canceled', refundedAmount: '2099.00' });
      const mail = renderer.render('order-canceled', { firstName: 'Leo', orderId: 22, refunded: '2099.00', story });
      expect(headings(mail)).toEqual({ html: story.heading, text: story.heading });
      expect(story.heading).toBe('Order Canceled');
      showsEverySentence(mail, story.sentences);
      expect(mail.text).toContain('Order #22 was canceled and $2,099.00 was refunded to your card.');
      for (const part of [mail.text, mail.html]) expect(part).not.toMatch(/Order Confirmed|ship within/);
    });

    it('canceled with nothing charged: neither the story nor the subject speaks of a refund', () => {
      const story = orderStory({ id: 22, status: 'canceled', refundedAmount: '0.00' });
      const mail = renderer.render('order-canceled', { firstName: 'Leo', orderId: 22, refunded: '0.00', story });
      showsEverySentence(mail, story.sentences);
      expect(mail.text).toContain('Order #22 was canceled and nothing was charged.');
      expect(mail.subject).toBe('Your order #22 was canceled');
    });

    it("partial refund: the refund's own heading and amount, then the story's words for what was given back in all", () => {
      const mail = renderer.render('order-partial-refund', {
        firstName: 'Ada',
        orderId: 23,
        amount: '5.00',
        reason: 'Cover arrived bent',
        refundedSoFar: refundedSentence('2099.00'),
      });
      expect(headings(mail)).toEqual({ html: 'A refund on your order #23', text: 'A refund on your order #23' });
      const story = orderStory({ id: 23, status: 'succeeded', refundedAmount: '2099.00' });
      expect(story.sentences).toContain('$2,099.00 of this order was refunded to your card.');
      showsEverySentence(mail, [story.sentences.at(-1)!]);
    });

    it('a payment refunded before it became an order: the same heading in both parts', () => {
      const mail = renderer.render('order-refunded', samples['order-refunded'].data);
      expect(headings(mail)).toEqual({ html: 'Your order #17 was refunded', text: 'Your order #17 was refunded' });
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
