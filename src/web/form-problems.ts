// How every form tells a refusal, server-rendered or island alike (islands/lib/form-problems.ts
// draws the same markup). 1. Problems: zodRefusal({ form, title, error, ids }) takes every issue
// of a failed parse (the first per field, led by a schema's `summary` param), errorProblems(err)
// a service's typed 4xx (its details.field puts it beside that field). 2. refusal({ form, title,
// problems, ids }): ids maps field names to input ids in the form's order; no id, no link.
// 3. Render with the 4xx status, `problems`, and every value as typed except passwords.
// 4. Template: include('../partials/form-problems', { problems: it.problems, form }) first in the
// form; each input gets <%~ it.problems.attrs(inputId, hintId) %>, then after it
// include('../partials/field-problem', { problems: it.problems, id: inputId }).
// 5. No error toast: the summary takes the focus on load; toasts only confirm success.
import type { z } from 'zod';
import { HttpError } from './errors.ts';

export interface FieldProblem {
  /** The field's name in the form; none for a refusal of the whole form (too many attempts). */
  field?: string | undefined;
  message: string;
}

export interface Refusal {
  /** Which form on the page was refused: only its summary is drawn. */
  form: string;
  title: string;
  /** A sentence under the title, before the list (the spec's own words for a group of problems). */
  lead: string | null;
  /** The summary's list: each message, linked to its field when it has one. */
  items: ReadonlyArray<{ message: string; href: string | null }>;
  /** The message beside the input with this id, if any. */
  messageFor(inputId: string): string | null;
  /** The id of that message's element. */
  messageId(inputId: string): string;
  /** aria-invalid and aria-describedby for the input (its hints first, then its message), as raw attributes. */
  attrs(inputId: string, ...hints: Array<string | null | undefined | false>): string;
}

/** The summary's heading and list on a page with nothing refused: every call draws nothing. */
export const NO_PROBLEMS: Refusal = refusal({ form: '', title: '', problems: [] });

/** Every issue of a failed parse, the first per field, in the order the schema found them. */
export function zodProblems(error: z.ZodError): FieldProblem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : undefined;
    const key = field ?? `\0${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ field, message: issue.message });
  }
  return problems;
}

/**
 * A refusal from a failed parse: every issue, led by the words a schema gave its issues for
 * the group (a `summary` param: 'Please fill in all required fields') when it gave some.
 */
export function zodRefusal({
  form,
  title,
  error,
  ids,
}: {
  form: string;
  title: string;
  error: z.ZodError;
  ids: Record<string, string>;
}): Refusal {
  const summaries = error.issues.map((i) => (i as { params?: { summary?: unknown } }).params?.summary);
  const lead = summaries.find((s): s is string => typeof s === 'string') ?? null;
  return refusal({ form, title, lead, problems: zodProblems(error), ids });
}

/** A service's refusal (a typed 4xx) as the form's one problem; `details.field` names its field. */
export function errorProblems(err: HttpError): FieldProblem[] {
  const field = typeof err.details.field === 'string' ? err.details.field : undefined;
  return [{ field, message: err.message }];
}

export function refusal({
  form,
  title,
  lead = null,
  problems,
  ids = {},
}: {
  form: string;
  title: string;
  lead?: string | null;
  problems: FieldProblem[];
  ids?: Record<string, string>;
}): Refusal {
  const order = Object.keys(ids);
  const rank = (p: FieldProblem) => (p.field && ids[p.field] ? order.indexOf(p.field) : -1);
  // Form-wide problems first, then the fields top to bottom, as a parent reads the form.
  const sorted = [...problems].sort((a, b) => rank(a) - rank(b));
  const byInput = new Map<string, string>();
  for (const p of sorted) {
    const id = p.field ? ids[p.field] : undefined;
    if (id && !byInput.has(id)) byInput.set(id, p.message);
  }
  const messageId = (inputId: string) => `${inputId}-error`;
  return {
    form,
    title,
    lead,
    items: sorted.map((p) => {
      const id = p.field ? ids[p.field] : undefined;
      return { message: p.message, href: id ? `#${id}` : null };
    }),
    messageFor: (inputId) => byInput.get(inputId) ?? null,
    messageId,
    attrs(inputId, ...hints) {
      const invalid = byInput.has(inputId);
      const described = [...hints.filter((h): h is string => Boolean(h)), ...(invalid ? [messageId(inputId)] : [])];
      return `${invalid ? ' aria-invalid="true"' : ''}${described.length ? ` aria-describedby="${escapeAttr(described.join(' '))}"` : ''}`;
    },
  };
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
