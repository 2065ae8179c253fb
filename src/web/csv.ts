import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { stringify } from 'csv-stringify';

/**
 * Streams rows to the browser as a CSV download. Cells a spreadsheet would run as a formula
 * (text starting with = + - @, a tab or a carriage return) get a leading apostrophe, so a
 * customer's email or a title cannot smuggle one in. A byte-order mark tells spreadsheets
 * the file is UTF-8.
 */
export async function sendCsv<Row extends Record<string, unknown>>(
  res: Response,
  filename: string,
  columns: readonly (keyof Row & string)[],
  rows: Iterable<Row> | AsyncIterable<Row>,
  /** The header row's words for each column; the column's key where none is given. */
  headings: Partial<Record<keyof Row & string, string>> = {},
): Promise<void> {
  const source = Readable.from(rows);
  // The first rows are read before anything is sent: a database that fails then gets the
  // error page, not a download cut off at its first byte.
  await once(source, 'readable');
  res.status(200);
  res.set('Content-Type', 'text/csv; charset=utf-8');
  res.attachment(filename);
  const csv = stringify({
    header: true,
    columns: columns.map((key) => ({ key, header: headings[key] ?? key })),
    escape_formulas: true,
    bom: true,
  });
  await pipeline(source, csv, res);
}
