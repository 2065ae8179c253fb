import { Model, type Pojo } from 'objection';
import { toDate, toDay } from '../lib/dates.ts';
import { toCents, toDecimal } from '../lib/money.ts';

// The shared base of every model. Column names are mapped snake_case <-> camelCase by knex (db.ts).
// The drivers disagree on values: MariaDB returns DECIMAL as "12.99" and DATETIME as a Date,
// SQLite returns 12.99 and text or epoch milliseconds. A row is converted here, once, as it is
// read, so code sees integer cents, Date instants and "2026-11-21" days whichever database it runs on.
export class BaseModel extends Model {
  /** DECIMAL(10,2) columns: cents in code, "12.99" written to the database. */
  static moneyColumns: readonly string[] = [];
  /** DATETIME columns: a Date in code. */
  static dateColumns: readonly string[] = [];
  /** DATE columns: a calendar day, "2026-11-21", in code. */
  static dayColumns: readonly string[] = [];

  override $parseDatabaseJson(json: Pojo): Pojo {
    const row = super.$parseDatabaseJson(json);
    const model = this.constructor as typeof BaseModel;
    for (const key of model.moneyColumns) if (row[key] != null) row[key] = toCents(row[key] as string | number);
    for (const key of model.dateColumns) if (row[key] != null) row[key] = toDate(row[key] as Date | string | number);
    for (const key of model.dayColumns) if (row[key] != null) row[key] = toDay(row[key] as Date | string);
    return row;
  }

  override $formatDatabaseJson(json: Pojo): Pojo {
    const row = super.$formatDatabaseJson(json);
    const model = this.constructor as typeof BaseModel;
    // Written as the exact decimal text, as before cents were converted here: no float reaches a DECIMAL.
    for (const key of model.moneyColumns) if (typeof row[key] === 'number') row[key] = toDecimal(row[key]);
    return row;
  }
}
