import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

// Fields that never reach a log line, wherever they sit in a logged object (up to three
// levels down): passwords and their hashes, tokens, cookies, payment secrets, card data.
const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'confirmPassword',
  'temporaryPassword',
  'passwordHash',
  'token',
  'csrfToken',
  'resetToken',
  'cookie',
  'cookies',
  'authorization',
  'clientSecret',
  'client_secret',
  'secret',
  'card',
  'cardNumber',
  'cvc',
  'cvv',
];
const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
  'req.headers["x-csrf-token"]',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
];

/**
 * The shop's logger: JSON lines on stdout by default. stdout is written asynchronously, so a
 * request never waits for its log line to reach a pipe or a file; pino writes what is still
 * buffered when the process exits, and shutdown flushes it first.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[Redacted]' }, serializers: { err: errorSerializer } };
  return pino(options, destination);
}

/** Resolves once every line logged so far has been written. */
export function flushLog(log: Logger): Promise<void> {
  return new Promise((resolve) => log.flush(() => resolve()));
}

// A driver error carries the statement and its values (an INSERT into users carries the new
// password hash): in `sql`/`bindings`, and knex prefixes the message with the statement
// with its values filled in. Only the database's own words are kept.
const STATEMENT_FIELDS = ['sql', 'bindings', 'parameters', 'values', 'query'];
const ARGON2_HASH = /\$argon2(?:id|i|d)\$[A-Za-z0-9$=,+/.-]*/g;
const STATEMENT = /^\s*(?:insert|select|update|delete|replace|with|create|alter|drop|pragma)\b[\s\S]* - /i;

/** pino's error serializer, minus anything a database statement would leak. */
export function errorSerializer(err: unknown): unknown {
  return scrub(pino.stdSerializers.err(err as Error), err, 0);
}

function scrub(serialized: unknown, original: unknown, depth: number): unknown {
  if (!serialized || typeof serialized !== 'object' || depth > 4) return serialized;
  const out = serialized as Record<string, unknown>;
  const source = (original ?? {}) as Record<string, unknown>;
  for (const field of STATEMENT_FIELDS) delete out[field];
  const driverMessage = typeof source.sqlMessage === 'string' ? source.sqlMessage : undefined;
  if (typeof out.message === 'string') out.message = scrubText(out.message, driverMessage);
  if (typeof out.stack === 'string')
    out.stack = out.stack
      .split('\n')
      .map((line) => scrubText(line, undefined))
      .join('\n');
  for (const [key, value] of Object.entries(out)) {
    if (value && typeof value === 'object') out[key] = scrub(value, source[key], depth + 1);
  }
  return out;
}

function scrubText(text: string, driverMessage: string | undefined): string {
  const withoutStatement = driverMessage ?? (STATEMENT.test(text) ? text.replace(STATEMENT, '[statement] - ') : text);
  return withoutStatement.replace(ARGON2_HASH, '[Redacted]');
}

// Reset links carry their token in the path.
export function redactUrl(url: string): string {
  return url.replace(/(\/reset-password\/)[^/?#]+/, '$1[Redacted]').replace(/([?&](?:token|key|secret)=)[^&#]*/gi, '$1[Redacted]');
}
