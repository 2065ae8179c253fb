// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { initCharacterCounters } from '../../islands/lib/character-counter.ts';

// The gift note's limit is met as it is typed: a counter says what is left, and nothing past
// the limit stays in the field, counted as a parent counts characters (an emoji is one).
function setUp(max = 5) {
  document.body.innerHTML = `<textarea id="note" data-counter-max="${max}" data-counter="note-count"></textarea>
    <small id="note-count"><span data-counter-text></span><span data-counter-announce aria-live="polite"></span></small>`;
  initCharacterCounters();
  return document.getElementById('note') as HTMLTextAreaElement;
}

function type(field: HTMLTextAreaElement, value: string) {
  field.value = value;
  field.dispatchEvent(new Event('input'));
}

const counter = () => document.querySelector('[data-counter-text]')!.textContent;
const announced = () => document.querySelector('[data-counter-announce]')!.textContent;

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the character counter', () => {
  it('says how many characters are left as the parent types', () => {
    const field = setUp();
    expect(counter()).toBe('5 characters left (0 of 5)');
    type(field, 'Hi');
    expect(counter()).toBe('3 characters left (2 of 5)');
    expect(announced()).toBe('');
  });

  it('keeps only what fits, counting an emoji family as one, and announces the limit', () => {
    const field = setUp();
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    type(field, `${family}${family}abcdef`);
    expect(field.value).toBe(`${family}${family}abc`);
    expect(counter()).toBe('0 characters left (5 of 5)');
    expect(document.getElementById('note-count')?.dataset.full).toBe('true');
    expect(announced()).toContain('5 characters');
  });
});
