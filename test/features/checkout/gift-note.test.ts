import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { Buyer, CARDS, SHIPPING } from '../../helpers/checkout.ts';
import { operatorBrowser } from '../../helpers/operator.ts';
import { GIFT_NOTE_MESSAGES } from '../../../src/features/checkout/checkout.schemas.ts';

let shop: TestShop;
let admin: supertest.Agent;
beforeAll(async () => {
  shop = await buildTestShop({ env: { SHOP_NOTIFY_EMAIL: SHOP_ADDRESS } });
  await shop.db('books').update({ inStock: 200 });
  ({ agent: admin } = await operatorBrowser(shop));
});
afterAll(() => shop.close());

const NOTE = 'Happy 5th birthday, Mia! <script>alert("x")</script> & <b>love</b> from Gran';
const ESCAPED = 'Happy 5th birthday, Mia! &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;love&lt;/b&gt; from Gran';

const RECIPIENT = 'Mia <Osei>';
const SHOP_ADDRESS = 'orders@littlelantern.example';

/** A signed-in parent who pays for one book, with `giftNote` sent as the card form sends it. */
async function buyWithNote(
  giftNote: unknown,
  giftRecipient?: string,
): Promise<{ buyer: Buyer; started: supertest.Response; orderId?: number }> {
  const buyer = new Buyer(shop);
  expect((await buyer.signUp(buyer.parent)).status).toBeLessThan(300);
  await buyer.add(1, 2);
  const started = await buyer.send('post', '/api/create-payment-intent-authenticated', { shippingInfo: SHIPPING, giftNote, giftRecipient });
  if (started.status !== 200) return { buyer, started };
  buyer.intent = started.body;
  expect((await buyer.confirm(CARDS.success)).status).toBe('succeeded');
  const completed = await buyer.complete();
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  return { buyer, started, orderId: Number(completed.body.order.id) };
}

describe('the gift note', () => {
  let buyer: Buyer;
  let orderId: number;
  beforeAll(async () => {
    ({ buyer, orderId } = (await buyWithNote(`  ${NOTE}\n`, ` ${RECIPIENT} `)) as { buyer: Buyer; orderId: number });
  });

  it("tells the shop's order mail to pack the gift slip, and leaves it out for an ordinary order", async () => {
    const shopMail = async (id: number) =>
      (await shop.db('outbox').where({ toAddress: SHOP_ADDRESS, orderId: id }).first()) as { textBody: string; htmlBody: string };
    const gift = await shopMail(orderId);
    expect(gift.textBody).toContain(
      `A gift: pack it with the gift slip, which shows no prices: ${shop.config.publicUrl}/admin/orders/${orderId}/gift-slip`,
    );
    expect(gift.htmlBody).toContain(`/admin/orders/${orderId}/gift-slip`);
    const { orderId: ordinary } = await buyWithNote(undefined);
    expect((await shopMail(ordinary!)).textBody).not.toContain('gift slip');
  });

  it('is stored on the order, trimmed, and answered by the API', async () => {
    const row = await shop.db('orders').where({ id: orderId }).first();
    expect(row.giftNote).toBe(NOTE);
    expect(row.giftRecipient).toBe(RECIPIENT);
    const api = await buyer.agent.get(`/api/orders/${orderId}`);
    expect(api.status).toBe(200);
    expect((api.body.order ?? api.body).giftNote).toBe(NOTE);
  });

  it('is shown, escaped, on the confirmation page and in the dashboard', async () => {
    for (const path of [`/order-confirmation?orderId=${orderId}`, '/dashboard?tab=orders']) {
      const page = await buyer.agent.get(path).expect(200);
      expect(page.text, path).toContain('Gift note');
      expect(page.text, path).toContain(ESCAPED);
      expect(page.text, path).toContain('Gift note for Mia &lt;Osei&gt;');
      expect(page.text, path).not.toContain('<script>alert');
    }
  });

  it('is in the confirmation email, inert in both its parts', async () => {
    const mail = await shop.db('outbox').where({ toAddress: buyer.parent.email, orderId }).first();
    expect(mail.textBody).toContain(`Gift note: ${NOTE}`);
    expect(mail.textBody).toContain(`Gift for: ${RECIPIENT}`);
    expect(mail.htmlBody).toContain(ESCAPED);
    expect(mail.htmlBody).not.toContain('<script>alert');
  });

  it('is on the admin order page, which links the gift packing slip', async () => {
    const page = await admin.get(`/admin/orders/${orderId}`).expect(200);
    expect(page.text).toContain(ESCAPED);
    expect(page.text).toContain(`href="/admin/orders/${orderId}/gift-slip"`);
  });

  it('has its gift slip linked from the to-pack list, beside the packing slip', async () => {
    const plain = await buyWithNote(undefined);
    const list = (await admin.get('/admin/to-pack').expect(200)).text;
    expect(list).toContain(`href="/admin/orders/${orderId}/gift-slip"`);
    expect(list).toContain(`href="/admin/orders/${plain.orderId}/packing-slip"`);
    expect(list).not.toContain(`href="/admin/orders/${plain.orderId}/gift-slip"`);
  });

  it('prints on a gift packing slip with the books, the recipient and the note, and no prices', async () => {
    const slip = await admin.get(`/admin/orders/${orderId}/gift-slip`).expect(200);
    const body = slip.text.slice(slip.text.indexOf('<main'));
    expect(body).toContain(ESCAPED);
    // The slip is addressed to the child it is for, at the order's address.
    expect(body).toContain('<strong>Mia &lt;Osei&gt;</strong>');
    expect(body).toContain(SHIPPING.address);
    expect(body).toMatch(/<td>[^<]+<\/td><td>2<\/td>/);
    expect(body).not.toContain('$');
    expect(body).not.toContain('<script>alert');
    // The packing slip's print rules: the slip alone, black on white, no site chrome.
    expect(body).toContain('class="packing-slip gift-slip"');
  });

  it('travels the guest checkout too, which creates the account as it pays', async () => {
    const guest = new Buyer(shop);
    await guest.add(1, 1);
    const { stripeCustomerId } = await guest.createAccount();
    const started = await guest.send('post', '/api/create-payment-intent-with-customer', {
      stripeCustomerId,
      shippingInfo: SHIPPING,
      giftNote: 'For Leo, with love',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    guest.intent = started.body;
    expect((await guest.confirm(CARDS.success)).status).toBe('succeeded');
    const completed = await guest.complete();
    expect(completed.body.order.giftNote).toBe('For Leo, with love');
  });

  it('a parent may not open the gift slip', async () => {
    const res = await buyer.agent.get(`/admin/orders/${orderId}/gift-slip`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(ESCAPED);
  });

  it('an order without a note shows none and links no gift slip', async () => {
    const plain = await buyWithNote('   ');
    expect((await shop.db('orders').where({ id: plain.orderId }).first()).giftNote).toBeNull();
    const page = await admin.get(`/admin/orders/${plain.orderId}`).expect(200);
    expect(page.text).not.toContain('/gift-slip');
    const confirmation = await plain.buyer.agent.get(`/order-confirmation?orderId=${plain.orderId}`).expect(200);
    expect(confirmation.text).not.toContain('Gift note');
  });
});

describe("the gift note's length", () => {
  // A family emoji is one character to a parent and eight UTF-16 units to JavaScript.
  const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';

  it('takes 200 characters as a parent sees them', async () => {
    const { orderId } = await buyWithNote(family.repeat(100) + 'x'.repeat(100));
    expect((await shop.db('orders').where({ id: orderId }).first()).giftNote).toBe(family.repeat(100) + 'x'.repeat(100));
  });

  it('refuses 201 with a clear message and holds nothing', async () => {
    const before = await shop.db('checkouts').count({ n: '*' }).first();
    const { started } = await buyWithNote('a'.repeat(201));
    expect(started.status).toBe(400);
    expect(started.body.message).toBe(GIFT_NOTE_MESSAGES.tooLong);
    const after = await shop.db('checkouts').count({ n: '*' }).first();
    expect(Number(after!.n)).toBe(Number(before!.n));
  });

  it('refuses a note that is not text', async () => {
    const { started } = await buyWithNote({ note: 'hi' });
    expect(started.status).toBe(400);
  });
});
