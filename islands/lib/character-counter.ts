import { visibleLength } from '../../src/features/checkout/gift-note.ts';

// A text field with a limit counted as a parent counts characters (an emoji is one): a counter
// under it says how many are left, and typing or pasting past the limit keeps only what fits,
// so the limit is met as it is typed rather than refused at the end. `maxlength` cannot do
// this: it counts UTF-16 units, two or more for many emoji.
//   <textarea data-counter-max="200" data-counter="id-of-counter">
//   <small id="id-of-counter" data-counter-text>200 characters left</small>
// The counter is read with the field (aria-describedby); only reaching the limit is announced.

export function initCharacterCounters(root: ParentNode = document): void {
  for (const field of root.querySelectorAll<HTMLTextAreaElement | HTMLInputElement>('[data-counter-max]')) {
    const max = Number(field.dataset.counterMax);
    const counter = document.getElementById(field.dataset.counter ?? '');
    if (!counter || !(max > 0)) continue;
    const announcer = counter.querySelector<HTMLElement>('[data-counter-announce]');
    const update = () => {
      let length = visibleLength(field.value);
      if (length > max) {
        field.value = firstCharacters(field.value, max);
        length = max;
      }
      const left = max - length;
      counter.dataset.full = String(left === 0);
      const text = counter.querySelector<HTMLElement>('[data-counter-text]') ?? counter;
      text.textContent = `${left} character${left === 1 ? '' : 's'} left (${length} of ${max})`;
      if (announcer) announcer.textContent = left === 0 ? `That is the most this note can hold: ${max} characters.` : '';
    };
    field.addEventListener('input', update);
    update();
  }
}

function firstCharacters(text: string, count: number): string {
  let out = '';
  let n = 0;
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)) {
    if (n++ >= count) break;
    out += segment;
  }
  return out;
}
