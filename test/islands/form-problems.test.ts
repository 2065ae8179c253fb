// @vitest-environment happy-dom
import { Eta } from 'eta';
import { afterEach, describe, expect, it } from 'vitest';
import { clearProblems, hasProblem, showProblems, type Problem } from '../../islands/lib/form-problems.ts';
import { refusal } from '../../src/web/form-problems.ts';
import { VIEWS_DIR } from '../../src/web/views.ts';

// The islands tell a refusal exactly as the server-rendered forms do: a focused summary first in
// the form, each problem linked to its field, the field marked and described by its message.
const ids = { name: 'f-name', email: 'f-email' };

function form(): HTMLFormElement {
  document.body.innerHTML = `<form id="f"><label for="f-name">Name</label><input id="f-name" name="name">
    <label for="f-email">Email</label><input id="f-email" name="email" aria-describedby="f-email-hint"><small id="f-email-hint">We write once.</small>
    <button>Send</button></form>`;
  return document.getElementById('f') as HTMLFormElement;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('showing a refusal from script', () => {
  it('draws the summary first in the form and focuses it, with every problem linked', () => {
    const f = form();
    showProblems(
      f,
      {
        title: 'Missing Information',
        lead: 'Please fill in all required fields',
        problems: [
          { field: 'email', message: 'No email' },
          { field: 'name', message: 'No name' },
        ],
      },
      ids,
    );
    const summary = f.firstElementChild as HTMLElement;
    expect(summary.matches('[data-form-problems][role="alert"][tabindex="-1"]')).toBe(true);
    expect(document.activeElement).toBe(summary);
    expect(summary.querySelector('h2')?.textContent).toBe('Missing Information');
    expect([...summary.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.textContent])).toEqual([
      ['#f-name', 'No name'],
      ['#f-email', 'No email'],
    ]);
    const email = document.getElementById('f-email')!;
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe('f-email-hint f-email-error');
    // The message reads after the field's hint.
    expect(document.getElementById('f-email-hint')?.nextElementSibling?.id).toBe('f-email-error');
    expect(document.getElementById('f-email-error')?.textContent).toBe('No email');
  });

  it('matches the server-rendered summary and message', () => {
    const problems: Problem[] = [{ field: 'name', message: 'No name' }];
    const eta = new Eta({ views: VIEWS_DIR, autoTrim: false });
    const server = document.createElement('div');
    server.innerHTML = eta.render('partials/form-problems', { problems: refusal({ form: 'f', title: 'T', problems, ids }), form: 'f' });
    const f = form();
    showProblems(f, { title: 'T', problems }, ids);
    const fromScript = f.querySelector('[data-form-problems]')!;
    const fromServer = server.querySelector('[data-form-problems]')!;
    for (const attribute of ['id', 'class', 'role', 'tabindex', 'aria-labelledby']) {
      expect(fromScript.getAttribute(attribute), attribute).toBe(fromServer.getAttribute(attribute));
    }
    expect(fromScript.querySelector('h2')?.outerHTML).toBe(fromServer.querySelector('h2')?.outerHTML);
    expect(fromScript.querySelector('ul')?.textContent?.trim()).toBe(fromServer.querySelector('ul')?.textContent?.trim());
  });

  it('clears a problem as soon as the parent puts it right, and the summary with the last one', () => {
    const f = form();
    const recheck = () => {
      const found: Problem[] = [];
      if (!(document.getElementById('f-name') as HTMLInputElement).value) found.push({ field: 'name', message: 'No name' });
      if (!(document.getElementById('f-email') as HTMLInputElement).value) found.push({ field: 'email', message: 'No email' });
      return found;
    };
    showProblems(f, { title: 'Missing Information', problems: recheck() }, ids, { recheck });
    const name = document.getElementById('f-name') as HTMLInputElement;
    name.focus();
    name.value = 'Ada';
    name.dispatchEvent(new Event('input', { bubbles: true }));
    expect(hasProblem(f, 'name')).toBe(false);
    expect(name.hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById('f-name-error')).toBeNull();
    expect(f.querySelectorAll('[data-form-problems] li')).toHaveLength(1);
    // The parent keeps typing where they are.
    expect(document.activeElement).toBe(name);
    const email = document.getElementById('f-email') as HTMLInputElement;
    email.value = 'ada@example.com';
    email.dispatchEvent(new Event('input', { bubbles: true }));
    expect(f.querySelector('[data-form-problems]')).toBeNull();
    expect(email.getAttribute('aria-describedby')).toBe('f-email-hint');
  });

  it('takes everything away on clearProblems', () => {
    const f = form();
    showProblems(f, { title: 'T', problems: [{ field: 'name', message: 'No name' }, { message: 'Slow down' }] }, ids);
    clearProblems(f);
    expect(f.querySelector('[data-form-problems], .field-error, [aria-invalid]')).toBeNull();
  });
});
