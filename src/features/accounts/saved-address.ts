import type { Knex } from 'knex';
import { User } from '../../models/User.ts';
import type { ShippingInfo } from './shipping-info.ts';

// A parent's last shipping address, kept on the account: written when an order is paid or
// the Profile's form is saved, offered at the signed-in checkout. Reads are by the signed-in
// account's id alone, so no parent is ever offered another's address.

type Trx = Knex | Knex.Transaction;

export async function savedAddressOf(db: Trx, userId: number): Promise<ShippingInfo | null> {
  const user = await User.query(db).findById(userId).select('savedAddress', 'savedCity', 'savedZipCode');
  if (!user?.savedAddress || !user.savedCity || !user.savedZipCode) return null;
  return { address: user.savedAddress, city: user.savedCity, zipCode: user.savedZipCode };
}

export async function saveAddress(db: Trx, userId: number, { address, city, zipCode }: ShippingInfo): Promise<void> {
  await User.query(db).findById(userId).patch({ savedAddress: address, savedCity: city, savedZipCode: zipCode });
}
