import type { Db } from '../../src/db.ts';
import { hashPassword } from '../../src/features/accounts/passwords.ts';
import { User } from '../../src/models/User.ts';
import { uniqueEmail } from './accounts.ts';

/** A customer account straight in the database. */
export async function insertCustomer(
  db: Db,
  { email = uniqueEmail(), firstName = 'Amara', lastName = 'Osei', password = 'story-time-42' } = {},
) {
  const user = await User.query(db).insertAndFetch({
    email,
    passwordHash: await hashPassword(password),
    firstName,
    lastName,
    role: 'customer',
  });
  return { id: user.id, email, password };
}

export interface OrderFixture {
  userId: number;
  status?: string;
  createdAt?: Date;
  total?: string;
  /** Each amount defaults to the total (subtotal) or zero (the rest). */
  amounts?: { subtotal?: string; shipping?: string; handling?: string; tax?: string; refunded?: string };
  lines?: { title: string; quantity: number; bookId?: number; price?: string }[];
  address?: { shippingAddress: string; city: string; state: string | null; zipCode: string };
  /** What the parent wrote at checkout, if the order is a gift. */
  gift?: { note?: string; recipient?: string };
}

/** An order straight in the database, as the checkout would have left it. */
export async function insertOrder(db: Db, fixture: OrderFixture): Promise<number> {
  const address = fixture.address ?? { shippingAddress: '214 Maple Street', city: 'Portland', state: 'OR', zipCode: '97205' };
  const [id] = await db('orders').insert({
    userId: fixture.userId,
    status: fixture.status ?? 'succeeded',
    subtotal: fixture.amounts?.subtotal ?? fixture.total ?? '12.99',
    shipping: fixture.amounts?.shipping ?? '0.00',
    handling: fixture.amounts?.handling ?? '0.00',
    tax: fixture.amounts?.tax ?? '0.00',
    totalAmount: fixture.total ?? '12.99',
    refundedAmount: fixture.amounts?.refunded ?? '0.00',
    ...address,
    giftNote: fixture.gift?.note ?? null,
    giftRecipient: fixture.gift?.recipient ?? null,
    createdAt: fixture.createdAt ?? new Date(),
    updatedAt: fixture.createdAt ?? new Date(),
  });
  const orderId = typeof id === 'object' ? Number((id as { id: number }).id) : Number(id);
  const book: { id: number } = await db('books').first('id');
  for (const line of fixture.lines ?? [{ title: 'The Lantern in the Wood', quantity: 1 }]) {
    await db('orderItems').insert({
      orderId,
      bookId: line.bookId ?? book.id,
      title: line.title,
      quantity: line.quantity,
      price: line.price ?? '12.99',
    });
  }
  return orderId;
}

/** The page's visible text, tags dropped, for asserting order and content. */
export function textOf(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', times: '×', copy: '©' };
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#\d+|\w+);/g, (whole, name: string) =>
      name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : (entities[name] ?? whole),
    )
    .replace(/\s+/g, ' ');
}
