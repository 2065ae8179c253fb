import path from 'node:path';
import { Eta } from 'eta';
import { VIEWS_DIR } from '../../web/views.ts';
import type { MailData, MailRenderer, MailTemplate } from './mail.types.ts';
import { subjects } from './subjects.ts';
import { formatUsd, formatUsdDecimal, toCents } from '../../lib/money.ts';

/** views/mail: `<template>.text.eta` and `<template>.html.eta`, plus their layouts. */
export const MAIL_VIEWS_DIR = path.join(VIEWS_DIR, 'mail');

export interface MailRendererOptions {
  /** The shop's public address ("https://shop.example.com"); relative links in the data are made absolute against it. */
  baseUrl: string;
  cache?: boolean;
}

/** A link in a message's data that is not http(s): a programming error. */
export class MailDataError extends Error {}

/** Renders a message's subject, plain-text part and HTML part. */
export function createMailRenderer({ baseUrl, cache = true }: MailRendererOptions): MailRenderer {
  // Plain text is never escaped; HTML always is (only the layout's body slot is raw).
  const text = new Eta({ views: MAIL_VIEWS_DIR, cache, autoEscape: false, autoTrim: false });
  const html = new Eta({ views: MAIL_VIEWS_DIR, cache, autoEscape: true, autoTrim: false });
  const homeUrl = absoluteUrl('/', baseUrl);
  const contactUrl = absoluteUrl('/contact', baseUrl);

  return {
    render<T extends MailTemplate>(template: T, data: MailData[T]) {
      const subject = oneLine(subjects[template](data));
      // The caller's data stays as given (a contact message's own `subject`, say); what the
      // layouts need lives apart under `it.mail`.
      const view: Record<string, unknown> = {
        ...withAbsoluteUrls(data, baseUrl),
        mail: { subject, homeUrl, contactUrl, usd: formatUsdDecimal, lineTotal },
      };
      return {
        subject,
        text: normaliseText(text.render(`./${template}.text.eta`, view)),
        html: html.render(`./${template}.html.eta`, view),
      };
    },
  };
}

/** A line's price times its quantity, as a parent reads it. */
function lineTotal(price: string, quantity: number): string {
  return formatUsd(toCents(price) * quantity);
}

/** Every `...Url` value that is a path ("/orders/42") becomes an absolute link against the shop's address. */
function withAbsoluteUrls(data: object, baseUrl: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    out[key] = /Url$/.test(key) && typeof value === 'string' ? absoluteUrl(value, baseUrl) : value;
  }
  return out;
}

function absoluteUrl(value: string, baseUrl: string): string {
  if (/^https?:\/\//i.test(value)) return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) throw new MailDataError(`Links in mail must be http(s): ${value}`);
  // Joined by hand so a base with a path ("https://example.com/shop") keeps it.
  const base = baseUrl.replace(/\/+$/, '');
  return value.startsWith('/') ? `${base}${value}` : `${base}/${value}`;
}

function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

/** No trailing spaces, at most one blank line in a row, one final newline. */
function normaliseText(value: string): string {
  return `${value
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
