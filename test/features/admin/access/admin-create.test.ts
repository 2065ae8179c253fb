import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../../src/features/accounts/passwords.ts';
import { User } from '../../../../src/models/User.ts';
import { buildTestShop, formToken, type TestShop } from '../../../helpers/app.ts';
import { uniqueEmail } from '../../../helpers/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../../../helpers/database.ts';
import { createOperator, signInWithPassword } from '../../../helpers/operator.ts';

// `npm run admin:create` run for real, as a separate process, against the test's database;
// then the printed password is used to sign in through the front door.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../..');

/** The command package.json runs for `npm run admin:create`, with the given arguments. */
async function adminCreate(database: TestDatabase, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts['admin:create'] as string;
  const [bin, ...scriptArgs] = script.split(' ');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: database.dataDir,
    PUBLIC_URL: 'https://shop.example',
    DOTENV_CONFIG_QUIET: 'true',
    DOTENV_CONFIG_PATH: path.join(database.dataDir, 'no.env'),
  };
  delete env.DATABASE_URL;
  if (database.databaseUrl) env.DATABASE_URL = database.databaseUrl;
  try {
    const { stdout, stderr } = await run(path.join(ROOT, 'node_modules/.bin', bin!), [...scriptArgs, ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const printedPassword = (stdout: string) => /One-time password: (\S+)/.exec(stdout)?.[1];

let database: TestDatabase;
let shop: TestShop;
beforeAll(async () => {
  // The script migrates an empty database itself, as on a fresh install.
  database = await createTestDatabase();
  const first = await adminCreate(database, ['--email', 'Owner@Example.com', '--first-name', 'Olive']);
  expect(first.code, first.stderr).toBe(0);
  firstOutput = first.stdout;
  shop = await buildTestShop({ database });
});
afterAll(async () => {
  await shop.close();
});
let firstOutput = '';

describe('npm run admin:create', () => {
  it('creates an operator and prints a one-time password and the next steps', async () => {
    expect(firstOutput).toContain('Created the operator account owner@example.com.');
    expect(firstOutput).toContain('https://shop.example/login');
    expect(firstOutput).toMatch(/authenticator/);
    const user = await User.query(shop.db).findOne({ email: 'owner@example.com' });
    expect(user).toMatchObject({ role: 'operator', firstName: 'Olive' });
  });

  it('lets the printed password sign in once, asks for a new password, then for the authenticator', async () => {
    const agent = shop.browser();
    const who = { email: 'owner@example.com', password: printedPassword(firstOutput)! };
    const signedIn = await signInWithPassword(agent, who);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/change-password');
    expect((await agent.get('/admin').expect(303)).headers.location).toBe('/change-password');

    const form = await agent.get('/change-password').expect(200);
    const changed = await agent
      .post('/change-password')
      .type('form')
      .send({ _csrf: formToken(form.text), newPassword: 'a-lantern-for-olive', confirmPassword: 'a-lantern-for-olive' });
    expect(changed.status).toBe(303);
    expect(changed.headers.location).toBe('/admin/two-factor');
    const enrol = await agent.get('/admin/two-factor').expect(200);
    expect(enrol.text).toMatch(/class="qr"[^>]*><svg/);
    await agent.get('/admin').expect(303).expect('location', '/admin/two-factor');

    // The one-time password is spent.
    const again = await signInWithPassword(shop.browser(), who);
    expect(again.status).toBe(401);
  });

  it('promotes an existing customer and resets their password', async () => {
    const email = uniqueEmail('customer');
    await User.query(shop.db).insert({ email, passwordHash: await hashPassword('story-time-42'), firstName: 'Amara', lastName: 'Osei' });
    const result = await adminCreate(database, ['--email', email]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${email} is now an operator`);
    const user = await User.query(shop.db).findOne({ email });
    expect(user).toMatchObject({ role: 'operator', firstName: 'Amara' });
    const audit = await shop.db('audit_log').where({ action: 'operator.granted' }).orderBy('id', 'desc').first();
    expect(audit.actorId).toBeNull();
    expect(JSON.parse(audit.beforeJson)).toEqual({ email, role: 'customer', twoStepSignIn: false });
    expect(JSON.parse(audit.afterJson)).toMatchObject({ email, role: 'operator' });
    expect((await signInWithPassword(shop.browser(), { email, password: 'story-time-42' })).status).toBe(401);
    const signedIn = await signInWithPassword(shop.browser(), { email, password: printedPassword(result.stdout)! });
    expect(signedIn.headers.location).toBe('/change-password');
  });

  it('gives the first name Shop unless told otherwise', async () => {
    const email = uniqueEmail('second');
    const result = await adminCreate(database, ['--email', email]);
    expect(result.code, result.stderr).toBe(0);
    expect((await User.query(shop.db).findOne({ email }))?.firstName).toBe('Shop');
  });

  it("resets an enrolled operator's authenticator and recovery codes: the way back in after a lost phone", async () => {
    const operator = await createOperator(shop.db);
    await shop.db('recovery_codes').insert({ userId: operator.id, codeHash: 'x'.repeat(64) });
    const result = await adminCreate(database, ['--email', operator.email]);
    expect(result.code, result.stderr).toBe(0);
    expect(await User.query(shop.db).findById(operator.id)).toMatchObject({ totpSecret: null, totpEnrolledAt: null });
    expect(await shop.db('recovery_codes').where({ userId: operator.id })).toEqual([]);
  });

  it.each([
    [[], /--email/],
    [['--email', 'not-an-address'], /does not look like an email address/],
    [['--email'], /--email/],
  ])('refuses %j with a clear message, exit code 1 and no stack', async (args, message) => {
    const before = await User.query(shop.db).resultSize();
    const result = await adminCreate(database, args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Usage: npm run admin:create');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await User.query(shop.db).resultSize()).toBe(before);
  });
});
