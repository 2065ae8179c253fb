import { Eta } from 'eta';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BadRequest } from '../../src/web/errors.ts';
import { errorProblems, NO_PROBLEMS, refusal, zodProblems } from '../../src/web/form-problems.ts';
import { VIEWS_DIR } from '../../src/web/views.ts';

// One way to tell a refusal on every form: all problems at once, a summary whose links follow the
// form's order, and each field marked and described by its own message.
const eta = new Eta({ views: VIEWS_DIR, autoTrim: false });
const schema = z.object({ name: z.string().min(1, 'Please enter your name.'), email: z.email('Please enter a valid email address') });
const ids = { name: 'f-name', email: 'f-email' };

describe('form problems', () => {
  it('lists every issue of a parse, the first per field', () => {
    const parsed = schema.safeParse({ name: '', email: 'nope' });
    expect(parsed.success).toBe(false);
    expect(zodProblems(parsed.error!)).toEqual([
      { field: 'name', message: 'Please enter your name.' },
      { field: 'email', message: 'Please enter a valid email address' },
    ]);
  });

  it("names a service refusal's field when its details say which", () => {
    expect(errorProblems(new BadRequest('Taken', { field: 'email' }))).toEqual([{ field: 'email', message: 'Taken' }]);
    expect(errorProblems(new BadRequest('Too many'))).toEqual([{ field: undefined, message: 'Too many' }]);
  });

  it('orders the summary as the form reads, form-wide problems first, and links each to its input', () => {
    const r = refusal({
      form: 'f',
      title: 'Signup Failed',
      problems: [{ field: 'email', message: 'Bad email' }, { field: 'name', message: 'No name' }, { message: 'Slow down' }],
      ids,
    });
    expect(r.items).toEqual([
      { message: 'Slow down', href: null },
      { message: 'No name', href: '#f-name' },
      { message: 'Bad email', href: '#f-email' },
    ]);
    expect(r.attrs('f-email', 'f-email-hint')).toBe(' aria-invalid="true" aria-describedby="f-email-hint f-email-error"');
    expect(r.attrs('f-other', 'f-other-hint')).toBe(' aria-describedby="f-other-hint"');
    expect(NO_PROBLEMS.attrs('f-email')).toBe('');
  });

  it('draws the summary only in the refused form, focusable and focused on load', () => {
    const r = refusal({
      form: 'signup',
      title: 'Signup Failed',
      lead: 'Please fill in all required fields',
      problems: [{ field: 'name', message: 'No name' }],
      ids,
    });
    const summary = eta.render('partials/form-problems', { problems: r, form: 'signup' });
    expect(summary).toContain('role="alert"');
    expect(summary).toContain('tabindex="-1"');
    expect(summary).toContain('autofocus');
    expect(summary).toContain('<h2 class="form-problems-title" id="signup-problems-title">Signup Failed</h2>');
    expect(summary).toContain('<p>Please fill in all required fields</p>');
    expect(summary).toContain('<a href="#f-name">No name</a>');
    expect(eta.render('partials/form-problems', { problems: r, form: 'signin' }).trim()).toBe('');
    expect(eta.render('partials/form-problems', { problems: NO_PROBLEMS, form: 'signup' }).trim()).toBe('');
    const message = eta.render('partials/field-problem', { problems: r, id: 'f-name' });
    expect(message).toContain('<small id="f-name-error" class="field-error">No name</small>');
    expect(eta.render('partials/field-problem', { problems: r, id: 'f-email' }).trim()).toBe('');
  });
});
