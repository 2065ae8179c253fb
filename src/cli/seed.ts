import 'dotenv/config';
import { loadConfig } from '../config.ts';
import { connectDb, migrateLatest } from '../db.ts';
import { dayIn } from '../lib/dates.ts';
import { seedCatalogue } from '../../seeds/books.ts';

// `npm run seed`: the sample catalogue, into an empty books table only.
const config = loadConfig();
const db = connectDb({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
try {
  await migrateLatest(db);
  const inserted = await seedCatalogue(db, dayIn(config.SHOP_TIME_ZONE));
  console.log(inserted ? `Seeded ${inserted} books.` : 'The catalogue already has books; nothing seeded.');
} finally {
  await db.destroy();
}
