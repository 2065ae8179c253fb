import type { Request } from 'express';
import { refusal, type FieldProblem, type Refusal } from './form-problems.ts';

// A refusal carried across a redirect, for forms that sit inside a list (a row's stock, the
// list's threshold, a cart line's quantity): the list is shown again at its own address, so a
// reload does not send the form twice, and the refusal and what was typed are drawn there once,
// as a flash is. A page that refuses a visitor outright (the dashboard) hands its reason to the
// form that puts it right (sign-in) the same way.

declare module 'express-session' {
  interface SessionData {
    keptRefusal: KeptRefusal;
  }
}

export interface KeptRefusal {
  form: string;
  title: string;
  problems: FieldProblem[];
  /** Field names to input ids, in the form's order (see refusal()). */
  ids: Record<string, string>;
  /** What was typed, by field name. */
  values: Record<string, string>;
}

export function keepRefusal(req: Request, kept: KeptRefusal): void {
  req.session.keptRefusal = kept;
}

/**
 * The refusal kept for this page, once: the next page is drawn without it. `ours` names the
 * page's forms, so a page that shares its session with other pages takes only its own refusal.
 */
export function takeRefusal(
  req: Request,
  ours: (form: string) => boolean = () => true,
): { problems: Refusal; form: string; values: Record<string, string> } | null {
  const kept = req.session.keptRefusal;
  if (!kept || !ours(kept.form)) return null;
  delete req.session.keptRefusal;
  return { problems: refusal(kept), form: kept.form, values: kept.values };
}

/** The text fields of a form's body, for giving them back (never a password: no admin list form has one). */
export function typedValues(body: unknown, fields: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  const from = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  for (const field of fields) if (typeof from[field] === 'string') values[field] = from[field];
  return values;
}
