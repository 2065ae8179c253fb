// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { forgetKeptFields, initKeptFields } from '../../islands/lib/kept-fields.ts';

// The checkout keeps what a parent typed across a reload (a discount code applied, a refresh),
// never a password or a card number.
const FORM = `<form>
  <input id="first" name="firstName" data-kept>
  <input id="password" name="password" type="password" data-kept>
  <input id="city" name="city" value="Saved City" data-kept>
  <textarea id="note" name="giftNote" data-kept></textarea>
  <input id="card" name="cardNumber">
</form>`;

/** The checkout page, loaded afresh in the same tab. */
function load(storage: Storage = sessionStorage) {
  document.body.innerHTML = FORM;
  initKeptFields(document, storage);
  const field = (id: string) => document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement;
  return { field };
}

function type(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

afterEach(() => {
  document.body.innerHTML = '';
  sessionStorage.clear();
});

describe('the checkout fields a reload keeps', () => {
  it('puts back what was typed into the marked fields, and nothing into a password or card field', () => {
    const first = load();
    type(first.field('first'), 'Rosa');
    type(first.field('password'), 'secret-pass');
    type(first.field('city'), 'Portland');
    type(first.field('note'), 'Happy birthday, Pip!');
    type(first.field('card'), '4242 4242 4242 4242');

    const again = load();
    expect(again.field('first').value).toBe('Rosa');
    expect(again.field('city').value).toBe('Portland');
    expect(again.field('note').value).toBe('Happy birthday, Pip!');
    expect(again.field('password').value).toBe('');
    expect(again.field('card').value).toBe('');
    expect(JSON.stringify(sessionStorage)).not.toContain('secret-pass');
    expect(JSON.stringify(sessionStorage)).not.toContain('4242');
  });

  it('tells what listens to a field (the counter, the totals) that its value came back, as if typed', () => {
    type(load().field('city'), 'Portland');
    document.body.innerHTML = FORM;
    const heard: string[] = [];
    document.body.addEventListener('input', (event) => heard.push((event.target as HTMLInputElement).name));
    initKeptFields(document, sessionStorage);
    expect(heard).toEqual(['city']);
  });

  it("leaves the page's own value when nothing was typed, and forgets everything after a paid order", () => {
    expect(load().field('city').value).toBe('Saved City');
    type(load().field('first'), 'Rosa');
    forgetKeptFields(sessionStorage);
    const after = load();
    expect(after.field('first').value).toBe('');
    expect(after.field('city').value).toBe('Saved City');
  });

  it('still works, keeping nothing, where the browser refuses storage', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    } as unknown as Storage;
    const page = load(refusing);
    expect(() => type(page.field('first'), 'Rosa')).not.toThrow();
    expect(() => forgetKeptFields(refusing)).not.toThrow();
    expect(page.field('first').value).toBe('Rosa');
  });
});
