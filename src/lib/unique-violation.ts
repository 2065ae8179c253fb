import { UniqueViolationError } from 'objection';

/** A row that a unique key says exists already, on either database. */
export function isUniqueViolation(err: unknown): boolean {
  if (err instanceof UniqueViolationError) return true;
  // objection wraps MySQL's ER_DUP_ENTRY; better-sqlite3's code reaches us bare.
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
