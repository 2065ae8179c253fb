import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isTimeZone } from './lib/dates.ts';

/**
 * How many reverse proxies stand in front of the shop (a hop count), or their addresses.
 * The client is the address the nearest trusted proxy saw; X-Forwarded-For entries left of
 * it are whatever the client chose to send, so "trust everything" is never an option.
 * 'false' is 0; 'true', the old setting, is read as one proxy.
 */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const trustProxy = z
  .string()
  .trim()
  .default('0')
  .transform((value, ctx): number | string[] => {
    if (value === '' || value === 'false') return 0;
    if (value === 'true') return 1;
    if (/^\d+$/.test(value) && Number(value) <= 10) return Number(value);
    const proxies = value.split(',').map((p) => p.trim());
    if (proxies.every((p) => PROXY_NAMES.has(p) || isAddressOrRange(p))) return proxies;
    ctx.addIssue({ code: 'custom', message: 'must be a number of proxies (0-10) or a comma-separated list of proxy addresses' });
    return z.NEVER;
  });

function isAddressOrRange(value: string): boolean {
  const [address = '', bits, extra] = value.split('/');
  if (extra !== undefined || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128);
}

// Every setting the shop reads from the environment. .env.example documents each one.
const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Unset: see listenHost. */
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('var'),
  /** Uploaded covers; unset: DATA_DIR/uploads. Every process serving the shop must share it. */
  UPLOADS_DIR: z.string().min(1).optional(),
  /** Covers in this S3-compatible bucket, shared by every server; unset: on this server's disk under UPLOADS_DIR. */
  S3_BUCKET: z.string().trim().min(1).optional(),
  /** Any S3-compatible store's address (MinIO, R2, Spaces...); unset: AWS. Credentials and region: the AWS SDK's own variables. */
  S3_ENDPOINT: z
    .url()
    .regex(/^https?:\/\//, 'must start with https:// or http://')
    .optional(),
  /** Where browsers fetch covers from (a CDN or the bucket's public address); unset: the shop serves them from the bucket. */
  S3_PUBLIC_URL: z
    .url()
    .regex(/^https?:\/\//, 'must start with https:// or http://')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** The bucket's credentials, under the AWS SDK's own names; unset: the SDK's other sources (an instance role...). */
  AWS_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  /** The bucket's region; unset with S3_ENDPOINT: us-east-1, which most S3-compatible stores accept. */
  AWS_REGION: z.string().trim().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(mysql|mariadb):\/\//, 'must start with mysql:// or mariadb://')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_MAX_AGE_DAYS: z.coerce.number().positive().default(30),
  CONTACT_MESSAGES_KEPT_DAYS: z.coerce.number().int().min(30, 'at least 30: a message needs time to be answered').default(365),
  TRUST_PROXY: trustProxy,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Little Lantern Books <hello@littlelanternbooks.example>'),
  /** Where the shop is told about a new paid order or contact message; unset, nobody is. */
  SHOP_NOTIFY_EMAIL: z.email().optional(),
  /** The shop's own clock: a pre-ordered title comes out, and its pre-orders are packed, on this zone's calendar day. */
  SHOP_TIME_ZONE: z.string().default('America/New_York').refine(isTimeZone, 'must be a time zone name, like America/New_York'),
  /** The address parents may write to (shown where a form cannot take their message); unset: MAIL_FROM's address. */
  SHOP_CONTACT_EMAIL: z.email().optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_test_... or sk_live_...)')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_/, 'must be a Stripe publishable key (pk_test_... or pk_live_...)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, 'must start with whsec_')
    .optional(),
  /** Where the Stripe SDK sends requests; only tests point it elsewhere. */
  STRIPE_API_URL: z.url().optional(),
  ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_CATALOGUE: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Server processes; unset: one per core in production on MariaDB, otherwise one. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** How costly password hashes are: OWASP's argon2id parameters, or cheap ones for tests only. */
  PASSWORD_HASH_COST: z.enum(['owasp', 'test']).default('owasp'),
});

type Env = z.infer<typeof schema>;

export type Config = Readonly<
  Omit<Env, 'SESSION_SECRET' | 'HOST'> & {
    SESSION_SECRET: string;
    /** HOST, or its default (see listenHost). */
    HOST: string;
    isProduction: boolean;
    dataDir: string;
    /** Absolute: UPLOADS_DIR, or DATA_DIR/uploads. */
    uploadsDir: string;
    /** How many server processes to run (WEB_CONCURRENCY or its default). */
    workers: number;
    /** Absolute base of links in emails: PUBLIC_URL, never a request's Host header. */
    publicUrl: string;
    /** Where parents can write: SHOP_CONTACT_EMAIL, or the address in MAIL_FROM. */
    contactEmail: string;
  }
>;

export class ConfigError extends Error {}

/** Whether the shop is told it stands behind a proxy (and so may learn a request came over https). */
export function behindProxy(config: Pick<Config, 'TRUST_PROXY'>): boolean {
  return Array.isArray(config.TRUST_PROXY) ? config.TRUST_PROXY.length > 0 : config.TRUST_PROXY > 0;
}

/**
 * Where the shop listens when HOST is unset. Trusting proxies by hop count, the shop takes
 * X-Forwarded-For from whoever connects, so in production only the proxy on this machine may
 * reach the port: a client connecting directly would pass for any address it wrote. A list of
 * proxy addresses trusts those peers only, and names where the proxy is: every interface then,
 * as without a proxy or outside production.
 */
export function listenHost(values: Pick<Env, 'HOST' | 'TRUST_PROXY' | 'NODE_ENV'>): string {
  if (values.HOST) return values.HOST;
  const trustsHopCount = typeof values.TRUST_PROXY === 'number' && behindProxy(values);
  return values.NODE_ENV === 'production' && trustsHopCount ? '127.0.0.1' : '0.0.0.0';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  const dataDir = path.resolve(values.DATA_DIR);
  for (const name of ['SESSION_SECRET', 'PUBLIC_URL'] as const) {
    if (isProduction && !values[name]) throw new ConfigError(`Invalid configuration:\n  ${name}: required in production`);
  }
  if (isProduction && values.PASSWORD_HASH_COST !== 'owasp')
    throw new ConfigError('Invalid configuration:\n  PASSWORD_HASH_COST: test is for tests only; production hashes at owasp cost');
  if (Boolean(values.STRIPE_SECRET_KEY) !== Boolean(values.STRIPE_PUBLISHABLE_KEY)) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY: set both or neither');
  }
  if (isProduction && !values.STRIPE_SECRET_KEY && !values.ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY: required in production (or set ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION=true to take test payments)',
    );
  }
  if (Boolean(values.AWS_ACCESS_KEY_ID) !== Boolean(values.AWS_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration:\n  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: set both or neither');
  }
  for (const name of ['S3_ENDPOINT', 'S3_PUBLIC_URL'] as const) {
    if (values[name] && !values.S3_BUCKET)
      throw new ConfigError(`Invalid configuration:\n  ${name}: set S3_BUCKET too, or covers stay on this server's disk`);
  }
  // A SQLite file takes one writing process: several would fail each other's transactions
  // with SQLITE_BUSY instead of waiting, so more processes need MariaDB.
  const workers = values.WEB_CONCURRENCY ?? (isProduction && values.DATABASE_URL ? availableParallelism() : 1);
  if (workers > 1 && !values.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  WEB_CONCURRENCY: more than one process needs DATABASE_URL (MariaDB); the SQLite file is written by one process',
    );
  }
  return Object.freeze({
    ...values,
    HOST: listenHost(values),
    workers,
    SESSION_SECRET: values.SESSION_SECRET ?? localSessionSecret(dataDir),
    isProduction,
    dataDir,
    uploadsDir: values.UPLOADS_DIR ? path.resolve(values.UPLOADS_DIR) : path.join(dataDir, 'uploads'),
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, ''),
    contactEmail: values.SHOP_CONTACT_EMAIL ?? addressIn(values.MAIL_FROM),
  });
}

/** The bare address of a From line ("Little Lantern Books <hello@example.com>" -> "hello@example.com"). */
function addressIn(from: string): string {
  return /<([^<>\s]+@[^<>\s]+)>/.exec(from)?.[1] ?? from.trim();
}

// Outside production a secret is generated once and kept under the data directory,
// so `npm start` needs no configuration and sessions survive a restart.
function localSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
