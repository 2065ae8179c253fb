import type { Knex } from 'knex';
import { isMySql, type Db } from '../db.ts';

// Grouping by UTC day or month, filtering by days or by an instant and summing money in SQL,
// the same on SQLite and MariaDB.
// On SQLite a DATETIME column holds either text ('2026-11-21 10:00:00', the column's
// default) or epoch milliseconds (a Date that knex bound), so every expression reads both.
// Column names are given in camelCase like the rest of the code; knex maps them.

const SNAKE = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function sqliteInstant(column: string): string {
  return `(CASE WHEN typeof(${column}) IN ('integer', 'real') THEN datetime(${column} / 1000, 'unixepoch') ELSE datetime(${column}) END)`;
}

function quoted(db: Db, column: string): string {
  const [table, name] = column.includes('.') ? column.split('.') : [undefined, column];
  const q = isMySql(db) ? '`' : '"';
  return [table, name]
    .filter(Boolean)
    .map((part) => `${q}${SNAKE(part!)}${q}`)
    .join('.');
}

/** SQL for the column's UTC day as 'YYYY-MM-DD'. */
export function dayOf(db: Db, column: string): string {
  const col = quoted(db, column);
  return isMySql(db) ? `DATE_FORMAT(${col}, '%Y-%m-%d')` : `strftime('%Y-%m-%d', ${sqliteInstant(col)})`;
}

/** SQL for the column's UTC month as 'YYYY-MM'. */
export function monthOf(db: Db, column: string): string {
  const col = quoted(db, column);
  return isMySql(db) ? `DATE_FORMAT(${col}, '%Y-%m')` : `strftime('%Y-%m', ${sqliteInstant(col)})`;
}

/** SQL summing a DECIMAL(10,2) column as integer cents, exactly, times a count column if given. */
export function centsSum(db: Db, column: string, timesColumn?: string): string {
  const col = quoted(db, column);
  const cents = isMySql(db) ? `ROUND(${col} * 100)` : `CAST(ROUND(${col} * 100) AS INTEGER)`;
  return `COALESCE(SUM(${timesColumn ? `${quoted(db, timesColumn)} * ` : ''}${cents}), 0)`;
}

/**
 * Rows whose column falls on the UTC days from `first` to `last` (both 'YYYY-MM-DD',
 * inclusive). Plain range comparisons, so an index on the column serves them; on SQLite
 * one range per stored form (numbers sort before text there, so neither range catches the other).
 */
export function onDays(db: Db, column: string, first: string, last: string) {
  const start = new Date(`${first}T00:00:00Z`);
  const end = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000);
  return (query: Knex.QueryBuilder) => {
    if (isMySql(db)) return query.where(column, '>=', start).where(column, '<', end);
    return query.where((either) =>
      either
        .where((n) => n.where(column, '>=', start.getTime()).where(column, '<', end.getTime()))
        .orWhere((t) => t.where(column, '>=', sqliteText(start)).where(column, '<', sqliteText(end))),
    );
  };
}

/**
 * Rows whose column is before `instant` (or, with '>=', at or after it). On SQLite each stored
 * form is compared with the instant in that form: a number never equals text there, and every
 * number sorts before every text, so one comparison alone misses or catches the other form.
 */
export function comparedWith(db: Db, column: string, op: '<' | '>=', instant: Date) {
  return (query: Knex.QueryBuilder) => {
    if (isMySql(db)) return query.where(column, op, instant);
    const col = quoted(db, column);
    return query.where((either) =>
      either
        .where((n) => n.whereRaw(`typeof(${col}) IN ('integer', 'real')`).where(column, op, instant.getTime()))
        .orWhere((t) => t.whereRaw(`typeof(${col}) = 'text'`).where(column, op, sqliteText(instant))),
    );
  };
}

function sqliteText(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
