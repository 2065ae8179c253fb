import type Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { isMySql, type Db } from '../../db.ts';
import type { SessionUser } from '../accounts/accounts.service.ts';

/** What a catalogue page's header needs for one session: the account, when signed in, and the cart's item count. */
export interface VisitorFacts {
  user?: SessionUser;
  cartCount: number;
}

/** The facts for a session's ids; undefined when the session's account no longer exists. */
export type VisitorFactsReader = (ids: { userId?: number | undefined; cartId?: number | undefined }) => Promise<VisitorFacts | undefined>;

// One statement per page instead of two (the account, then the cart): a page for a session
// is answered in front of the app, and each round trip is most of its cost. The count is the
// cart service's countItems (a signed-in parent's cart is theirs; a guest's is the session's
// cart that no account owns), which test/web/session-pages.test.ts holds to the app's badge.
// Single-word aliases: the snake-case mappers leave them alone, and the embedded reader has none.
const CART_ITEMS = 'SELECT COALESCE(SUM(i.quantity), 0) FROM cart_items i JOIN carts c ON c.id = i.cart_id';
const SIGNED_IN = `SELECT u.id, u.first_name AS firstname, u.role, u.must_change_password AS mustchange,
  u.session_version AS sessionversion, (${CART_ITEMS} WHERE c.user_id = u.id) AS items
  FROM users u WHERE u.id = ?`;
const GUEST = `SELECT (${CART_ITEMS} WHERE c.id = ? AND c.user_id IS NULL) AS items`;

interface Row {
  id?: number;
  firstname?: string;
  role?: SessionUser['role'];
  mustchange?: number | boolean;
  sessionversion?: number;
  items: number | string | null;
}

/**
 * Reads the facts in one statement: on the embedded database through its read-only
 * connection (openSqliteReader: no pool to wait for, committed rows only, so a change
 * answered to the parent is already there), otherwise on a pooled connection.
 */
export function visitorFactsReader(db: Db, sqliteReader?: Database.Database): VisitorFactsReader {
  const run = sqliteReader ? embeddedRunner(sqliteReader) : poolRunner(db);
  return async ({ userId, cartId }) => {
    if (!userId && !cartId) return { cartCount: 0 };
    const row = userId ? await run(SIGNED_IN, userId) : await run(GUEST, cartId!);
    if (!row) return undefined;
    const cartCount = Number(row.items ?? 0);
    if (!userId) return { cartCount };
    const user: SessionUser = {
      id: Number(row.id),
      firstName: String(row.firstname),
      role: row.role!,
      mustChangePassword: Boolean(row.mustchange),
      sessionVersion: Number(row.sessionversion),
    };
    return { user, cartCount };
  };
}

type Runner = (sql: string, id: number) => Promise<Row | undefined>;

function embeddedRunner(reader: Database.Database): Runner {
  const statements = new Map<string, Database.Statement>();
  // Async, so that a failed read rejects like the pool's would.
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (sql, id) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = reader.prepare(sql)));
    return statement.get(id) as Row | undefined;
  };
}

interface MysqlConnection {
  execute(sql: string, values: unknown[], done: (err: Error | null, rows: Row[]) => void): void;
}

/**
 * On MariaDB, the statement goes straight to a connection of knex's own pool: knex's query
 * runner (builder, bindings, response mappers) cost as much as the round trip itself. It is
 * a prepared statement, which each connection keeps, so the server parses and plans it once
 * per connection instead of once per page.
 */
function poolRunner(db: Db): Runner {
  const client = db.client as Knex.Client;
  if (!isMySql(db)) return async (sql, id) => (await db.raw<Row[]>(sql, [id]))[0];
  return async (sql, id) => {
    const connection = (await client.acquireConnection()) as MysqlConnection;
    try {
      return await new Promise<Row | undefined>((resolve, reject) =>
        connection.execute(sql, [id], (err, rows) => (err ? reject(err) : resolve(rows[0]))),
      );
    } finally {
      await client.releaseConnection(connection);
    }
  };
}
