import { clearProblems, showProblems, type Problem } from './form-problems.ts';

// The forgot-password dialog sent with no email says so beside the field, inside the dialog,
// with the reset page's own words, which the page carries on the form (without script the reset
// page itself says them): leaving the sign-in page for a form the parent did not open would lose
// their place. The words come from the page so the script every page loads carries no messages.
const IDS = { email: 'forgot-email' };

export function initResetDialog(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-validate="reset"]');
  const email = form?.querySelector<HTMLInputElement>('input[name="email"]');
  if (!form || !email) return;
  const { missingTitle = '', missingMessage = '' } = form.dataset;
  const problems = (): Problem[] => (email.value.trim() ? [] : [{ field: 'email', message: missingMessage }]);
  form.addEventListener('submit', (event) => {
    const found = problems();
    if (!found.length) return;
    event.preventDefault();
    showProblems(form, { title: missingTitle, problems: found }, IDS, { recheck: problems });
  });
  // Opened again, the dialog starts afresh.
  form.closest('dialog')?.addEventListener('close', () => clearProblems(form));
}
