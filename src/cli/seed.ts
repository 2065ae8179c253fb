import 'dotenv/config';
import { loadConfig } from '../config.ts';
import { connectDb, migrateLatest } from '../db.ts';
import { seedCatalogue } from '../../seeds/books.ts';

// `npm run seed`: the sample catalogue, into an empty books table only.
const config = loadConfig();
const db = connectDb({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
try {
  await migrateLatest(db);
  const inserted = await seedCatalogue(db);
  console.log(inserted ? `Seeded ${inserted} books.` : 'The catalogue already has books; nothing seeded.');
} finally {
  await db.destroy();
}
