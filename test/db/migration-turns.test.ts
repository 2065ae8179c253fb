// Servers starting together migrate one at a time; a migration cut off half-way is named as
// such, with the command that clears it, instead of leaving the shop unable to start.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, migrateLatest, type Db } from '../../src/db.ts';
import { createTestDatabase, usingMySql, type TestDatabase } from '../helpers/database.ts';
import { ROOT } from '../helpers/production-server.ts';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = connectDb({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('migrating at start-up', () => {
  it.runIf(usingMySql)('waits while another server migrates the same database', async () => {
    await db.transaction(async (otherServer) => {
      await otherServer.raw("SELECT GET_LOCK(CONCAT(DATABASE(), '.migrations'), 0)");
      await expect(migrateLatest(db, { waitSeconds: 1 })).rejects.toThrow('another server has been migrating the database for 1 s');
      await otherServer.raw("SELECT RELEASE_LOCK(CONCAT(DATABASE(), '.migrations'))");
    });
    await expect(migrateLatest(db, { waitSeconds: 1 })).resolves.toBeUndefined();
  });

  it('names a migration cut off half-way, and `npm run migrate -- unlock` clears it', async () => {
    await db('knex_migrations_lock').update({ isLocked: 1 });
    await expect(migrateLatest(db, { waitSeconds: 1 })).rejects.toThrow(
      'a migration was interrupted. Check the database, then release the mark with `npm run migrate -- unlock`',
    );
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: database.dataDir, DOTENV_CONFIG_PATH: '/nonexistent', NODE_ENV: 'test' };
    if (database.databaseUrl) env.DATABASE_URL = database.databaseUrl;
    else delete env.DATABASE_URL;
    const unlock = spawnSync('npm', ['run', '--silent', 'migrate', '--', 'unlock'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(unlock.stdout + unlock.stderr).toContain('Released the migration lock.');
    await expect(migrateLatest(db)).resolves.toBeUndefined();
  });
});
