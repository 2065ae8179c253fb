import 'dotenv/config';
import { loadConfig } from './src/config.ts';
import { knexConfig } from './src/db.ts';

// For the knex CLI (`npx knex migrate:status`); the shop itself migrates at start-up.
const config = loadConfig();
export default knexConfig({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
