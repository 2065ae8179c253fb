// Readings of a refused form in server-rendered HTML (src/web/form-problems.ts draws them):
// its summary, the message beside one input, and the toasts the page carries.
import { textOf } from './admin-fixtures.ts';

export interface Summary {
  title: string;
  /** Each problem's words, in the summary's order. */
  items: string[];
  /** Each problem's link (`#input-id`), or null for a problem of the whole form. */
  links: Array<string | null>;
}

/** The summary drawn for `form`, or null when the page has none for it. */
export function summaryOf(html: string, form: string): Summary | null {
  const block = new RegExp(`<div class="form-problems" id="${form}-problems"[\\s\\S]*?</ul>`).exec(html)?.[0];
  if (!block) return null;
  const title = /class="form-problems-title"[^>]*>([\s\S]*?)<\/h\d>/.exec(block)?.[1] ?? '';
  const items = [...block.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
  return {
    title: textOf(title).trim(),
    items: items.map((item) => textOf(item).trim()),
    links: items.map((item) => /href="([^"]+)"/.exec(item)?.[1] ?? null),
  };
}

/** The summaries on the page, by form name. */
export function summaryForms(html: string): string[] {
  return [...html.matchAll(/<div class="form-problems" id="([^"]+)-problems"/g)].map((m) => m[1]!);
}

/** The input (or select, textarea) with this id: whether it is marked invalid, and the message tied to it. */
export function fieldProblem(html: string, inputId: string): { invalid: boolean; message: string | null; tag: string } {
  const tag = new RegExp(`<(?:input|select|textarea)[^>]*\\bid="${inputId}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no input with id ${inputId}`);
  const described = /aria-describedby="([^"]*)"/.exec(tag)?.[1]?.split(' ') ?? [];
  const errorId = `${inputId}-error`;
  const message = described.includes(errorId)
    ? (new RegExp(`<small id="${errorId}" class="field-error">([\\s\\S]*?)</small>`).exec(html)?.[1] ?? null)
    : null;
  return { invalid: /aria-invalid="true"/.test(tag), message: message === null ? null : textOf(message).trim(), tag };
}

/** The value an input shows. */
export function valueOf(html: string, inputId: string): string | null {
  const tag = new RegExp(`<input[^>]*\\bid="${inputId}"[^>]*>`).exec(html)?.[0];
  const value = tag ? /\bvalue="([^"]*)"/.exec(tag)?.[1] : undefined;
  return value === undefined ? null : textOf(value);
}

/** The toasts on the page: each one's variant and title. */
export function toastsOf(html: string): Array<{ variant: string; title: string; text: string }> {
  return [
    ...html.matchAll(/<li class="toast toast-(\w+)"[\s\S]*?class="toast-title">([\s\S]*?)<\/p>\s*<p class="toast-text">([\s\S]*?)<\/p>/g),
  ].map((m) => ({ variant: m[1]!, title: textOf(m[2]!).trim(), text: textOf(m[3]!).trim() }));
}
