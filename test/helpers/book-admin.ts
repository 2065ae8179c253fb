import type supertest from 'supertest';
import { formToken } from './app.ts';

/** A complete, valid book form as an operator would fill it in. */
export function bookFormFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    title: 'The Lighthouse Cat',
    author: 'Mara Quill',
    description: 'A cat keeps the lamp lit through the longest night of the year.',
    price: '14.99',
    stock: '12',
    publishedOn: '2026-09-01',
    publisher: 'Little Lantern Books',
    isbn: '978-0-306-40615-7',
    ageRange: '3-5',
    pages: '32',
    amazonUrl: 'https://www.amazon.com/dp/0306406152',
    amazonKindleUrl: '#coming-soon',
    ...overrides,
  };
}

/** Posts an admin form the way the browser does: the page's token, then the fields. */
export async function postAdminForm(
  agent: supertest.Agent,
  pagePath: string,
  action: string,
  fields: Record<string, string>,
): Promise<supertest.Response> {
  const page = await agent.get(pagePath).expect(200);
  return agent
    .post(action)
    .type('form')
    .send({ _csrf: formToken(page.text), ...fields });
}

/** Adds a book through the form; answers its id. */
export async function addBook(agent: supertest.Agent, overrides: Record<string, string> = {}): Promise<number> {
  const res = await postAdminForm(agent, '/admin/books/new', '/admin/books', bookFormFields(overrides));
  if (res.status !== 303) throw new Error(`adding a book answered ${res.status}: ${res.text.slice(0, 300)}`);
  return Number(/\/admin\/books\/(\d+)\/edit/.exec(res.headers.location!)![1]);
}

/** The message shown beside one field of the book form, if any. */
export function fieldMessage(html: string, field: string, form = 'book'): string | undefined {
  return new RegExp(`<small id="${form}-${field}-error" class="field-error">([^<]*)</small>`)
    .exec(html)?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
