import 'dotenv/config';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.ts';
import { connectDb, migrateLatest } from '../db.ts';
import { grantOperator } from '../features/admin/access/operator-accounts.ts';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '../lib/email.ts';

// `npm run admin:create -- --email ADDRESS [--first-name NAME]`: creates the shop's operator
// (or promotes an existing account) and prints a one-time password to sign in with.

const USAGE = 'Usage: npm run admin:create -- --email ADDRESS [--first-name NAME]';

const argsSchema = z.object({
  email: z
    .string({ error: "Please give the operator's email address with --email." })
    .trim()
    .max(MAX_EMAIL_LENGTH, 'That email address is too long.')
    .regex(EMAIL_PATTERN, 'That does not look like an email address.'),
  'first-name': z
    .string()
    .trim()
    .min(1, 'The first name cannot be empty.')
    .max(100, 'Please keep the first name under 100 characters.')
    .default('Shop'),
});

function readArgs(): z.infer<typeof argsSchema> {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ options: { email: { type: 'string' }, 'first-name': { type: 'string' } }, strict: true }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  return parsed.data;
}

class UsageError extends Error {}

async function main(): Promise<void> {
  const args = readArgs();
  const config = loadConfig();
  const db = connectDb({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    await migrateLatest(db);
    const grant = await grantOperator(db, { email: args.email, firstName: args['first-name'] });
    const hours = Math.round((grant.expiresAt.getTime() - Date.now()) / 3_600_000);
    console.log(
      [
        grant.created
          ? `Created the operator account ${grant.email}.`
          : `${grant.email} is now an operator; its password and authenticator were reset.`,
        '',
        `  One-time password: ${grant.temporaryPassword}`,
        `  (works once, for the next ${hours} hours)`,
        '',
        'Next steps:',
        `  1. Sign in at ${config.publicUrl}/login with this address and the one-time password.`,
        '  2. Choose your own password.',
        '  3. Set up two-step sign-in: scan the QR code with an authenticator app, enter its code,',
        '     and keep the ten recovery codes somewhere safe.',
      ].join('\n'),
    );
  } finally {
    await db.destroy();
  }
}

try {
  await main();
} catch (err) {
  if (err instanceof UsageError) console.error(`${err.message}\n${USAGE}`);
  else if (err instanceof ConfigError) console.error(err.message);
  else console.error(`Could not create the operator: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
