import { ACCOUNT_MESSAGES as M } from '../../src/features/accounts/accounts.messages.ts';
import { clearProblems, showProblems, type Problem } from './form-problems.ts';

// The forgot-password dialog sent with no email says so beside the field, inside the dialog,
// with the reset page's own words (without script the page itself says it): leaving the sign-in
// page for a form the parent did not open would lose their place.
const IDS = { email: 'forgot-email' };

export function initResetDialog(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-validate="reset"]');
  const email = form?.querySelector<HTMLInputElement>('input[name="email"]');
  if (!form || !email) return;
  const problems = (): Problem[] => (email.value.trim() ? [] : [{ field: 'email', message: M.resetMissing }]);
  form.addEventListener('submit', (event) => {
    const found = problems();
    if (!found.length) return;
    event.preventDefault();
    showProblems(form, { title: M.resetFailed.title, problems: found }, IDS, { recheck: problems });
  });
  // Opened again, the dialog starts afresh.
  form.closest('dialog')?.addEventListener('close', () => clearProblems(form));
}
