import 'dotenv/config';
import { loadConfig } from '../config.ts';
import { connectDb } from '../db.ts';

// `npm run migrate` applies pending migrations (the shop also does this at start-up);
// `npm run migrate -- rollback` undoes the last batch; `npm run migrate -- unlock` releases the
// lock a migration interrupted half-way left behind.
const config = loadConfig();
const db = connectDb({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
try {
  if (process.argv[2] === 'rollback') {
    const [batch, names] = (await db.migrate.rollback()) as [number, string[]];
    console.log(names.length ? `Rolled back batch ${batch}: ${names.join(', ')}` : 'Nothing to roll back.');
  } else if (process.argv[2] === 'unlock') {
    await db.migrate.forceFreeMigrationsLock();
    console.log('Released the migration lock.');
  } else {
    const [batch, names] = (await db.migrate.latest()) as [number, string[]];
    console.log(names.length ? `Applied batch ${batch}: ${names.join(', ')}` : 'Already up to date.');
  }
} finally {
  await db.destroy();
}
