import { Refund } from '../../src/models/Refund.ts';
import { formToken, type TestShop } from './app.ts';
import { newParent, type Parent } from './accounts.ts';
import { Buyer, CARDS, setStock } from './checkout.ts';

/** A parent with one of every kind of record the shop keeps about a person. */
export interface Household {
  parent: Parent;
  /** Signed in, as the parent's own browser. */
  buyer: Buyer;
  orderId: number;
  giftRecipient: string;
  giftNote: string;
  street: string;
  city: string;
  /** The title of the book they wait for. */
  waitingFor: string;
  contactSubject: string;
}

/** Books the seeded catalogue has on sale, picked so two households never share one. */
async function booksOnSale(shop: TestShop, count: number, skip: number): Promise<Array<{ id: number; title: string }>> {
  return shop.db('books').where('inStock', '>', 5).where({ hidden: false }).orderBy('id').offset(skip).limit(count).select('id', 'title');
}

/**
 * Signs a parent up and gives them a delivered gift order with a partial refund, a saved
 * address, a cart, a contact message (sent with another spelling of their address), a
 * back-in-stock request and a password reset link. `names` keep one household's words apart
 * from another's; `slot` picks different books.
 */
export async function householdWithEverything(
  shop: TestShop,
  { names, slot }: { names: { firstName: string; lastName: string; street: string; city: string; recipient: string }; slot: number },
): Promise<Household> {
  const parent = newParent({ firstName: names.firstName, lastName: names.lastName });
  const buyer = new Buyer(shop);
  buyer.parent = parent;
  const [ordered, inCart, awaited] = await booksOnSale(shop, 3, slot * 3);
  if (!ordered || !inCart || !awaited) throw new Error('the seeded catalogue has too few books on sale');

  expectStatus(await buyer.signUp(parent), 201);
  await buyer.add(ordered.id, 1);
  const shippingInfo = { address: names.street, city: names.city, zipCode: '97205' };
  const giftNote = `Happy birthday, love from ${names.firstName}`;
  expectStatus(await buyer.startPayment({ shippingInfo, gift: { giftNote, giftRecipient: names.recipient } }), 200);
  await buyer.confirm(CARDS.success);
  const completed = await buyer.complete();
  expectStatus(completed, 200);
  const orderId = Number((completed.body as { order: { id: number } }).order.id);
  // The parcel arrived, and a damaged corner was refunded.
  await shop.db('orders').where({ id: orderId }).update({
    status: 'delivered',
    carrier: 'USPS',
    trackingNumber: '9400100000000000000000',
    shippedAt: new Date(),
    deliveredAt: new Date(),
  });
  await Refund.query(shop.db).insert({
    orderId,
    amount: 200,
    reason: 'Damaged corner',
    status: 'succeeded',
    requestKey: `refund-${orderId}`,
    actorId: null,
    createdAt: new Date(),
    settledAt: new Date(),
  });
  await shop.db('orders').where({ id: orderId }).update({ refundedAmount: 2 });

  await buyer.add(inCart.id, 2);

  const contactSubject = `A question from ${names.firstName}`;
  const contact = await shop
    .browser()
    .post('/api/contact')
    .send({
      firstName: names.firstName,
      lastName: names.lastName,
      email: parent.email.toUpperCase(),
      currentMember: 'yes',
      subject: contactSubject,
      description: `Do you ship to ${names.city}? I am ordering for ${names.recipient}.`,
    });
  expectStatus(contact, 201);

  await setStock(shop, awaited.id, 0);
  const page = await shop.browser().get(`/books/${awaited.id}`);
  const asked = await shop
    .browser()
    .post(`/books/${awaited.id}/notify`)
    .type('form')
    .send({ _csrf: formToken(page.text), email: parent.email });
  expectStatus(asked, 200);

  expectStatus(await new Buyer(shop).send('post', '/api/auth/reset-password', { email: parent.email }), 200);

  return {
    parent,
    buyer,
    orderId,
    giftRecipient: names.recipient,
    giftNote,
    street: names.street,
    city: names.city,
    waitingFor: awaited.title,
    contactSubject,
  };
}

function expectStatus(res: { status: number; text?: string }, status: number): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${(res.text ?? '').slice(0, 300)}`);
}

/** Every table's every text cell that contains one of `needles` (any letter case), as "table: cell". */
export async function cellsMentioning(shop: TestShop, needles: string[]): Promise<string[]> {
  const mysql = shop.db.client.config.client === 'mysql2';
  const tables: string[] = mysql
    ? ((await shop.db.raw('SHOW TABLES')) as [Array<Record<string, string>>])[0].map((row) => Object.values(row)[0]!)
    : (await shop.db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")).map(
        (row: { name: string }) => row.name,
      );
  const found: string[] = [];
  const wanted = needles.map((n) => n.toLowerCase());
  for (const table of tables) {
    // Raw rows, without the shop's column mappers: every cell as stored.
    const rows = (mysql ? (await shop.db.raw(`SELECT * FROM \`${table}\``))[0] : await shop.db.raw(`SELECT * FROM "${table}"`)) as Array<
      Record<string, unknown>
    >;
    for (const row of rows)
      for (const cell of Object.values(row)) {
        const text = typeof cell === 'string' ? cell : Buffer.isBuffer(cell) ? cell.toString('utf8') : '';
        if (wanted.some((needle) => text.toLowerCase().includes(needle))) found.push(`${table}: ${text.slice(0, 120)}`);
      }
  }
  return found;
}
