import { describe, expect, it } from 'vitest';
import { scriptJson } from '../../src/web/views.ts';

// scriptJson writes every raw JSON block (island props, a book's JSON-LD) into a <script>
// element. Whatever a book's description holds must stay data: nothing in the output may
// close the element, open an HTML comment or end a JavaScript string early.
describe('scriptJson', () => {
  const description = 'A fox </script><script>alert(1)</script> and <!-- a comment --> & more';

  it('leaves no < or > for the HTML parser to read as a tag or a comment', () => {
    const out = scriptJson({ description });
    expect(out).not.toMatch(/[<>]/);
    expect(out.toLowerCase()).not.toContain('</script');
    expect(out).not.toContain('<!--');
  });

  it('escapes & so no character reference can be formed either', () => {
    expect(scriptJson('&amp;')).toBe('"\\u0026amp;"');
  });

  it('escapes the line and paragraph separators, which end a JavaScript string literal in older engines', () => {
    const out = scriptJson('one\u2028two\u2029three');
    expect(out).toBe('"one\\u2028two\\u2029three"');
    expect(out).not.toMatch(/[\u2028\u2029]/);
  });

  it('still parses back to exactly the value it was given', () => {
    const value = { description, lines: 'one\u2028two\u2029three', price: '12.99', nested: [1, null, true] };
    expect(JSON.parse(scriptJson(value))).toEqual(value);
  });
});
