import { describe, expect, it } from 'vitest';
import { inAgeBand, offeredAgeBands } from '../../../src/features/catalog/book-finder.rules.ts';
import { MAX_WORDS, searchWords } from '../../../src/features/catalog/book-search.ts';

describe('inAgeBand', () => {
  it.each([
    ['3-5', '3-5', true],
    ['4-7', '6-9', true],
    ['6-9', '9-12', true],
    ['9-11', '6-9', true],
    ['3-8', '9-12', false],
    ['10-12', '6-9', false],
    ['0-2', '3-5', false],
    ['12-18', '9-12', true],
    ['', '3-5', false],
    ['all ages', '3-5', false],
  ] as const)('a %s book is in band %s: %s', (ages, band, expected) => {
    expect(inAgeBand(ages, band)).toBe(expected);
  });
});

describe('offeredAgeBands', () => {
  it('offers the bands some book is in, in their order, and no band no book is in', () => {
    expect(offeredAgeBands(['3-5', '4-7', '6-9', '3-9'])).toEqual(['3-5', '6-9', '9-12']);
    expect(offeredAgeBands(['1-3'])).toEqual(['0-2', '3-5']);
    expect(offeredAgeBands(['', 'all ages'])).toEqual([]);
  });

  it('keeps the chosen band even with no book in it', () => {
    expect(offeredAgeBands(['3-5'], '0-2')).toEqual(['0-2', '3-5']);
  });
});

describe('searchWords', () => {
  it('keeps words of letters and digits, lower case, each once', () => {
    expect(searchWords(`"Bear's" (PICNIC) -bear* picnic`)).toEqual(['bear', 'picnic']);
  });

  it('leaves out words under 3 letters and stopwords, which the MariaDB index does not hold', () => {
    expect(searchWords('the ox and a fox of the woods')).toEqual(['and', 'fox', 'woods']);
  });

  it('counts letters, not bytes, and keeps letters of any script', () => {
    expect(searchWords('éé 熊熊熊 Ünï')).toEqual(['熊熊熊', 'ünï']);
  });

  it(`keeps at most ${MAX_WORDS} words`, () => {
    expect(searchWords(Array.from({ length: 20 }, (_, i) => `word${i}`).join(' '))).toHaveLength(MAX_WORDS);
  });
});
