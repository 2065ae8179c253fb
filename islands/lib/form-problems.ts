// The refusal pattern of src/web/form-problems.ts for forms the browser checks itself: the
// same summary (first in the form, focused, each problem a link to its field) and the same
// message beside each field, drawn from script. A problem that is put right while the parent
// types leaves at once; new ones wait for the next submit, so nothing shouts mid-word.

export interface Problem {
  /** The field's name in the form; none for a problem of the whole form. */
  field?: string | undefined;
  message: string;
}

export interface ShownRefusal {
  title: string;
  lead?: string | null;
  problems: Problem[];
}

interface Shown {
  refusal: ShownRefusal;
  ids: Record<string, string>;
  recheck?: (() => Problem[]) | undefined;
}

const shown = new WeakMap<HTMLElement, Shown>();

/**
 * Shows a refusal on `form`: ids maps field names to input ids in the form's order. recheck,
 * when given, is asked again as the parent types, and problems it no longer finds are cleared.
 */
export function showProblems(
  form: HTMLFormElement,
  refusal: ShownRefusal,
  ids: Record<string, string>,
  { recheck, focus = true }: { recheck?: () => Problem[]; focus?: boolean } = {},
): void {
  clearProblems(form);
  if (!refusal.problems.length) return;
  const state: Shown = { refusal: { ...refusal, problems: sortByForm(refusal.problems, ids) }, ids, recheck };
  shown.set(form, state);
  draw(form, state);
  if (focus) form.querySelector<HTMLElement>(':scope > [data-form-problems]')?.focus();
  if (recheck && !form.dataset.problemsWatched) {
    form.dataset.problemsWatched = 'true';
    const onChange = () => dropFixed(form);
    form.addEventListener('input', onChange);
    form.addEventListener('change', onChange);
  }
}

let unnamed = 0;

/**
 * For a form with no field to fault, the button alone (a catalogue card's Add to Cart), or a
 * button outside any form (Share, in its row): the message beside the button, as a field's is,
 * announced and read with the button. The focus stays on the button, which is where the parent
 * is and what they press again.
 */
export function showButtonProblem(within: HTMLElement, button: HTMLElement, message: string): void {
  clearProblems(within);
  button.id ||= `button-${++unnamed}`;
  const messageId = `${button.id}-error`;
  const shownMessage = element('small', { id: messageId, class: 'field-error', role: 'alert', 'data-field-problem': '' }, message);
  button.after(shownMessage);
  // A button is not a value that can be wrong: it is described, never marked invalid.
  button.dataset.problemMarked = '';
  const described = (button.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  button.setAttribute('aria-describedby', [...described, messageId].join(' '));
}

/** Takes the summary and every field's message away. */
export function clearProblems(form: HTMLElement): void {
  shown.delete(form);
  form.querySelector(':scope > [data-form-problems]')?.remove();
  for (const message of form.querySelectorAll('[data-field-problem]')) message.remove();
  for (const input of form.querySelectorAll<HTMLElement>('[data-problem-marked]')) unmark(input);
}

/** Whether the form shows a problem for this field now. */
export function hasProblem(form: HTMLFormElement, field: string): boolean {
  return shown.get(form)?.refusal.problems.some((p) => p.field === field) ?? false;
}

/**
 * For server-rendered refusals: the summary takes the focus once the page has loaded (autofocus
 * does it without script, but not on every browser), and its links move the focus into the field.
 */
export function initFormProblems(): void {
  const summary = document.querySelector<HTMLElement>('[data-form-problems]');
  if (summary && document.activeElement !== summary) summary.focus();
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('[data-form-problems] a[href^="#"]');
    if (!link) return;
    const field = document.getElementById(decodeURIComponent(link.getAttribute('href')!.slice(1)));
    if (!(field instanceof HTMLElement)) return;
    event.preventDefault();
    field.scrollIntoView({ block: 'center' });
    field.focus();
  });
}

function dropFixed(form: HTMLFormElement): void {
  const state = shown.get(form);
  if (!state?.recheck) return;
  const now = state.recheck();
  const stillWrong = (p: Problem) => now.some((n) => n.field === p.field && n.message === p.message);
  const left = state.refusal.problems.filter(stillWrong);
  if (left.length === state.refusal.problems.length) return;
  if (!left.length) return clearProblems(form);
  // Redrawn without moving the focus: the parent is typing in a field.
  showProblems(form, { ...state.refusal, problems: left }, state.ids, { recheck: state.recheck, focus: false });
}

function draw(form: HTMLFormElement, { refusal, ids }: Shown): void {
  const summaryId = `${form.id || 'form'}-problems`;
  const summary = element('div', {
    class: 'form-problems',
    id: summaryId,
    role: 'alert',
    tabindex: '-1',
    'aria-labelledby': `${summaryId}-title`,
    'data-form-problems': '',
  });
  summary.append(element('h2', { class: 'form-problems-title', id: `${summaryId}-title` }, refusal.title));
  if (refusal.lead) summary.append(element('p', {}, refusal.lead));
  const list = element('ul', {});
  for (const problem of refusal.problems) {
    const id = problem.field ? ids[problem.field] : undefined;
    const item = element('li', {});
    item.append(id ? element('a', { href: `#${id}` }, problem.message) : document.createTextNode(problem.message));
    list.append(item);
  }
  summary.append(list);
  form.prepend(summary);

  const marked = new Set<string>();
  for (const problem of refusal.problems) {
    const id = problem.field ? ids[problem.field] : undefined;
    const input = id ? document.getElementById(id) : null;
    if (!id || !input || marked.has(id)) continue;
    marked.add(id);
    const messageId = `${id}-error`;
    const message = element('small', { id: messageId, class: 'field-error', 'data-field-problem': '' }, problem.message);
    placeAfter(input, message);
    mark(input, messageId);
  }
}

/** After the input and the hints that describe it, so the message reads under them. */
function placeAfter(input: HTMLElement, message: HTMLElement): void {
  const hints = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  let anchor: Element = input;
  while (anchor.nextElementSibling && hints.includes(anchor.nextElementSibling.id)) anchor = anchor.nextElementSibling;
  anchor.after(message);
}

function mark(input: HTMLElement, messageId: string): void {
  input.dataset.problemMarked = input.getAttribute('aria-invalid') ?? '';
  input.setAttribute('aria-invalid', 'true');
  const described = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  input.setAttribute('aria-describedby', [...described, messageId].join(' '));
}

function unmark(input: HTMLElement): void {
  const before = input.dataset.problemMarked;
  delete input.dataset.problemMarked;
  if (before) input.setAttribute('aria-invalid', before);
  else input.removeAttribute('aria-invalid');
  const described = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && id !== `${input.id}-error`);
  if (described.length) input.setAttribute('aria-describedby', described.join(' '));
  else input.removeAttribute('aria-describedby');
}

function sortByForm(problems: Problem[], ids: Record<string, string>): Problem[] {
  const order = Object.keys(ids);
  const rank = (p: Problem) => (p.field && ids[p.field] ? order.indexOf(p.field) : -1);
  return [...problems].sort((a, b) => rank(a) - rank(b));
}

function element(tag: string, attributes: Record<string, string>, text?: string): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  if (text !== undefined) el.textContent = text;
  return el;
}
