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

/**
 * The fields of a submitted form or JSON object, before parsing: what a page echoes back
 * into the form it shows again. Each value is unknown until a schema says otherwise.
 */
export function bodyFields(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/** One message per field, the first problem found in each: what a form shows beside its fields. */
export function fieldErrors<F extends string = string>(error: z.ZodError): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as F;
    errors[field] ??= issue.message;
  }
  return errors;
}
