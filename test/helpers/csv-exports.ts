import { parse as parseCsv } from 'csv-parse/sync';
import { ORDER_HEADINGS, TAX_HEADINGS } from '../../src/features/admin/numbers/exports.service.ts';

// The exports' rows keyed by column (order_total, tax_collected...), whatever words their header
// row uses: tests read values by what they are, and the headings are checked where they matter.
const KEY_OF = new Map<string, string>(
  [...Object.entries(ORDER_HEADINGS), ...Object.entries(TAX_HEADINGS)].map(([key, heading]) => [heading, key]),
);

export function csvRows(text: string): Record<string, string>[] {
  return parseCsv(text, { columns: (header: string[]) => header.map((h) => KEY_OF.get(h) ?? h), bom: true });
}

/** The header row as the spreadsheet shows it. */
export function csvHeadings(text: string): string[] {
  const [header = []]: string[][] = parseCsv(text, { bom: true, to_line: 1 });
  return header;
}
