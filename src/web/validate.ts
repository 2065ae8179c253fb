import type { z } from 'zod';
import { BadRequest } from './errors.ts';

/**
 * Parses input at the edge; a bad value becomes a 400 carrying the first problem's message.
 * Schemas therefore write their messages for people ("limit must be a number").
 */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new BadRequest(result.error.issues[0]?.message ?? 'Invalid request');
}
