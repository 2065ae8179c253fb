import type { z } from 'zod';
import { BadRequest } from './errors.ts';

/**
 * Parses input at the edge; a bad value becomes a 400 carrying the first problem's message,
 * or its `summary` param where a schema gives one (a missing field's issue says which field;
 * the request as a whole is answered with the words for all missing fields). Schemas therefore
 * write their messages for people ("limit must be a number").
 */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new BadRequest(summaryOf(result.error) ?? 'Invalid request');
}

/** What a refusal says as a whole: the first issue's summary param, else its message. */
export function summaryOf(error: z.ZodError): string | undefined {
  const first = error.issues[0];
  if (!first) return undefined;
  const summary = (first as { params?: { summary?: unknown } }).params?.summary;
  return typeof summary === 'string' ? summary : first.message;
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
