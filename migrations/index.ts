import type { Knex } from 'knex';
import * as initial from './20261121000000_initial.ts';
import * as checkout from './20261121000100_checkout.ts';
import * as rateLimits from './20261123000000_rate_limits.ts';
import * as sessionVersion from './20261123000100_session_version.ts';
import * as checkoutGuards from './20261123000200_checkout_guards.ts';
import * as cartVisitorKey from './20261123000300_cart_visitor_key.ts';
import * as operatorSide from './20261123000400_operator_side.ts';
import * as orderTimeline from './20261123000500_order_timeline.ts';
import * as catalogueVersion from './20261123000600_catalogue_version.ts';
import * as orderLinesIndex from './20261123000900_order_lines_index.ts';
import * as bookAdmin from './20261124000000_book_admin.ts';
import * as bookCovers from './20261124000100_book_covers.ts';
import * as bookSearch from './20261125000100_book_search.ts';
import * as backInStock from './20261125000200_back_in_stock.ts';
import * as savedAddress from './20261125000300_saved_address.ts';
import * as discountCodes from './20261125000400_discount_codes.ts';
import * as checkoutAddressLocks from './20261125000500_checkout_address_locks.ts';
import * as backInStockInbox from './20261126000100_back_in_stock_inbox.ts';
import * as preorders from './20261128000100_preorders.ts';
import * as accountErasure from './20261128000200_account_erasure.ts';

// Migrations are listed here rather than discovered on disk, so the same list runs
// under the server, the tests and the knex CLI. Add each new migration at the end.
const migrations: Record<string, Knex.Migration> = {
  '20261121000000_initial': initial,
  '20261121000100_checkout': checkout,
  '20261123000000_rate_limits': rateLimits,
  '20261123000100_session_version': sessionVersion,
  '20261123000200_checkout_guards': checkoutGuards,
  '20261123000300_cart_visitor_key': cartVisitorKey,
  '20261123000400_operator_side': operatorSide,
  '20261123000500_order_timeline': orderTimeline,
  '20261123000600_catalogue_version': catalogueVersion,
  '20261123000900_order_lines_index': orderLinesIndex,
  '20261124000000_book_admin': bookAdmin,
  '20261124000100_book_covers': bookCovers,
  '20261125000100_book_search': bookSearch,
  '20261125000200_back_in_stock': backInStock,
  '20261125000300_saved_address': savedAddress,
  '20261125000400_discount_codes': discountCodes,
  '20261125000500_checkout_address_locks': checkoutAddressLocks,
  '20261126000100_back_in_stock_inbox': backInStockInbox,
  '20261128000100_preorders': preorders,
  '20261128000200_account_erasure': accountErasure,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: () => Promise.resolve(Object.keys(migrations)),
  getMigrationName: (name) => name,
  getMigration: (name) => Promise.resolve(migrations[name]!),
};
