import type { z } from 'zod';
import { toDecimal } from '../../lib/money.ts';
import type { Book } from '../../models/Book.ts';
import * as rules from './book-field-rules.ts';

// Every field of a book the operator edits, named once. The admin form's schema and inputs, the
// saving and the audit snapshot, the plain fields of BookDto, the books CSV and the seed's type
// are all read from this list: a new field is one entry here and a migration
// (test/features/catalog/book-fields.test.ts fails when any of them is missing a field).

/** How the form asks for a value; it also says how the CSV and the seed write it. */
export type InputKind = 'text' | 'textarea' | 'decimal' | 'numeric' | 'date' | 'url' | 'checkbox';

/** The book being edited, for the hints that speak of it; undefined on the "Add a book" form. */
export interface HintContext {
  held: number;
}

interface FieldSpec<
  Name extends string,
  Seed extends string | null,
  Input extends InputKind,
  Dto extends boolean,
  Rule extends z.ZodType,
  Value,
> {
  /** The form input's name; the Book property too, except for a field saved apart. */
  name: Name;
  /** Its column in the books table. */
  column: string;
  /** How the form's text becomes the value (book-field-rules.ts). */
  rule: Rule;
  label: string;
  input: Input;
  /** Marked required in the form (the rule is what refuses an empty value). */
  required?: boolean;
  hint?: string | ((book: HintContext | undefined) => string);
  /** 'half': shares a row with the half field next to it, as a pair of columns. */
  layout: 'full' | 'half';
  /** The stored value as the form's rule gives it (cents for a price); null where nothing is stored. */
  read: (book: Book) => Value;
  /**
   * Saved by its own path, not with the other columns: the shelf count goes through
   * shelf-stock.ts, which checks it against the copies held by checkouts.
   */
  savedApart?: boolean;
  /** BookDto carries it under its name, as read. */
  dto: Dto;
  /** The books CSV's heading for its column. */
  csv: string;
  /** The seed's column for it (seeds/books.ts); null: the seed leaves the column's default. */
  seed: Seed;
}

function field<
  const Name extends string,
  const Seed extends string | null,
  const Input extends InputKind,
  const Dto extends boolean,
  Rule extends z.ZodType,
  Value,
>(spec: FieldSpec<Name, Seed, Input, Dto, Rule, Value>): FieldSpec<Name, Seed, Input, Dto, Rule, Value> {
  return spec;
}

const LINK_HINT = 'https://..., or #coming-soon; empty for none';

/** In the order the form shows them, and the CSV's columns. */
export const BOOK_FIELDS = [
  field({
    name: 'title',
    column: 'title',
    rule: rules.required('title', 200),
    label: 'Title',
    input: 'text',
    required: true,
    layout: 'full',
    read: (book) => book.title,
    dto: true,
    csv: 'Title',
    seed: 'title',
  }),
  field({
    name: 'author',
    column: 'author',
    rule: rules.required('author', 200),
    label: 'Author',
    input: 'text',
    required: true,
    layout: 'full',
    read: (book) => book.author,
    dto: true,
    csv: 'Author',
    seed: 'author',
  }),
  field({
    name: 'description',
    column: 'description',
    rule: rules.required('description', 5000),
    label: 'Description',
    input: 'textarea',
    required: true,
    layout: 'full',
    read: (book) => book.description,
    dto: true,
    csv: 'Description',
    seed: 'description',
  }),
  field({
    name: 'price',
    column: 'price',
    rule: rules.price,
    label: 'Price (USD)',
    input: 'decimal',
    required: true,
    hint: 'Like 12.99',
    layout: 'half',
    read: (book) => book.price,
    // The DTO gives the price twice, as "12.99" and as cents (book.dto.ts).
    dto: false,
    csv: 'Price (USD)',
    seed: 'price',
  }),
  field({
    name: 'stock',
    column: 'in_stock',
    rule: rules.copies,
    label: 'Copies on the shelf',
    input: 'numeric',
    required: true,
    hint: (book) =>
      book?.held
        ? `Including ${book.held} held by checkouts in progress`
        : 'Including copies held by checkouts in progress; 0 shows Coming Soon',
    layout: 'half',
    // The copies for sale; the form adds the held ones back (books.service.ts, find).
    read: (book) => book.inStock,
    savedApart: true,
    // The DTO's inStock is what an ordinary sale may take: less the copies owed to pre-orders.
    dto: false,
    csv: 'Copies in stock, not counting held ones',
    seed: 'in_stock',
  }),
  field({
    name: 'isbn',
    column: 'isbn',
    rule: rules.isbn,
    label: 'ISBN-13',
    input: 'numeric',
    hint: 'Like 978-0-306-40615-7',
    layout: 'half',
    read: (book) => book.isbn ?? null,
    dto: true,
    csv: 'ISBN-13',
    seed: null,
  }),
  field({
    name: 'ageRange',
    column: 'age_range',
    rule: rules.ageRange,
    label: 'Age range',
    input: 'text',
    required: true,
    hint: 'Like 3-5',
    layout: 'half',
    read: (book) => book.ageRange,
    dto: true,
    csv: 'Age range',
    seed: 'age_range',
  }),
  field({
    name: 'publishedOn',
    column: 'published_on',
    rule: rules.publishedOn,
    label: 'Publication date',
    input: 'date',
    required: true,
    layout: 'half',
    read: (book) => book.publishedOn,
    dto: true,
    csv: 'Publication date',
    seed: 'published_on',
  }),
  field({
    name: 'pages',
    column: 'pages',
    rule: rules.pages,
    label: 'Pages',
    input: 'numeric',
    layout: 'half',
    read: (book) => book.pages ?? null,
    dto: true,
    csv: 'Pages',
    seed: 'pages',
  }),
  field({
    name: 'takesPreorders',
    column: 'takes_preorders',
    rule: rules.tick,
    label: 'Take pre-orders before the publication date',
    input: 'checkbox',
    layout: 'half',
    read: (book) => Boolean(book.takesPreorders),
    dto: true,
    csv: 'Takes pre-orders',
    seed: 'takes_preorders',
  }),
  field({
    name: 'preorderLimit',
    column: 'preorder_limit',
    rule: rules.preorderLimit,
    label: 'Pre-order limit',
    input: 'numeric',
    hint: 'The first print run; empty for no limit',
    layout: 'half',
    read: (book) => book.preorderLimit ?? null,
    // The DTO says how many pre-order copies are left instead (preorderCopiesLeft).
    dto: false,
    csv: 'Pre-order limit',
    seed: 'preorder_limit',
  }),
  field({
    name: 'publisher',
    column: 'publisher',
    rule: rules.required('publisher', 200),
    label: 'Publisher',
    input: 'text',
    required: true,
    layout: 'full',
    read: (book) => book.publisher ?? 'Little Lantern Books',
    dto: true,
    csv: 'Publisher',
    seed: null,
  }),
  field({
    name: 'amazonUrl',
    column: 'amazon_url',
    rule: rules.buyLink('hardcover'),
    label: 'Hardcover link',
    input: 'url',
    hint: LINK_HINT,
    layout: 'full',
    read: (book) => book.amazonUrl ?? null,
    dto: true,
    csv: 'Hardcover link',
    seed: 'amazon_url',
  }),
  field({
    name: 'amazonKindleUrl',
    column: 'amazon_kindle_url',
    rule: rules.buyLink('Kindle'),
    label: 'Kindle ebook link',
    input: 'url',
    hint: LINK_HINT,
    layout: 'full',
    read: (book) => book.amazonKindleUrl ?? null,
    dto: true,
    csv: 'Kindle ebook link',
    seed: 'amazon_kindle_url',
  }),
] as const;

export type BookFieldSpec = (typeof BOOK_FIELDS)[number];
export type BookFieldName = BookFieldSpec['name'];

type Stored<F extends BookFieldSpec> = ReturnType<F['read']>;

/** What the form's schema is made of: each field's rule under its name. */
export type BookFormShape = { [F in BookFieldSpec as F['name']]: F['rule'] };

export function bookFormShape(): BookFormShape {
  return Object.fromEntries(BOOK_FIELDS.map((f) => [f.name, f.rule])) as BookFormShape;
}

/** The fields BookDto carries as they are stored. */
export type BookDtoFields = { [F in BookFieldSpec as F['dto'] extends true ? F['name'] : never]: Stored<F> };

export function dtoFields(book: Book): BookDtoFields {
  return Object.fromEntries(BOOK_FIELDS.filter((f) => f.dto).map((f) => [f.name, f.read(book)])) as BookDtoFields;
}

/** A seed book's value: a price as the DECIMAL text the table takes ("12.99"), the rest as stored. */
type SeedValue<F extends BookFieldSpec> = F['input'] extends 'decimal' ? string : Stored<F>;

/** The columns a seed book gives (seeds/books.ts adds its cover). */
export type SeedBookFields = { [F in BookFieldSpec as F['seed'] extends string ? F['seed'] : never]: SeedValue<F> };

/** A stored value as one CSV cell: amounts as "12.99", ticks as yes or no, nothing as an empty cell. */
export function csvCell(spec: BookFieldSpec, value: string | number | boolean | null | undefined): string | number {
  if (value === null || value === undefined) return '';
  if (spec.input === 'decimal') return toDecimal(Number(value));
  if (spec.input === 'checkbox') return value ? 'yes' : 'no';
  return typeof value === 'number' ? value : String(value);
}

/** One input of the admin form, as views/admin/_field.eta takes it. */
export interface FormInput {
  name: string;
  label: string;
  required?: boolean;
  hint?: string;
  textarea?: boolean;
  checkbox?: boolean;
  type?: string;
  inputmode?: string;
}

const INPUTS: Record<InputKind, Pick<FormInput, 'textarea' | 'checkbox' | 'type' | 'inputmode'>> = {
  text: {},
  textarea: { textarea: true },
  decimal: { inputmode: 'decimal' },
  numeric: { inputmode: 'numeric' },
  date: { type: 'date' },
  url: { type: 'text', inputmode: 'url' },
  checkbox: { checkbox: true },
};

/** The admin form's rows, top to bottom: one full-width input, or two half ones side by side. */
export function bookFormRows(book: HintContext | undefined): FormInput[][] {
  const rows: FormInput[][] = [];
  let pairing = false;
  for (const spec of BOOK_FIELDS as readonly BookFieldSpec[]) {
    const hint = typeof spec.hint === 'function' ? spec.hint(book) : spec.hint;
    const input: FormInput = {
      name: spec.name,
      label: spec.label,
      ...('required' in spec && spec.required ? { required: true } : {}),
      ...(hint ? { hint } : {}),
      ...INPUTS[spec.input],
    };
    if (spec.layout === 'half' && pairing) {
      rows[rows.length - 1]!.push(input);
      pairing = false;
    } else {
      rows.push([input]);
      pairing = spec.layout === 'half';
    }
  }
  return rows;
}
