import { useEffect, useState } from 'react';
import { ACCOUNT_MESSAGES as M, FIELD_MESSAGES as F } from '../../src/features/accounts/accounts.messages.ts';
import { api, ApiError, messageOf, rememberCsrfToken } from '../lib/api.ts';
import { SIGNED_IN_EVENT, type SignedInDetail } from '../lib/checkout-sign-in.ts';
import { clearProblems, showProblems } from '../lib/form-problems.ts';

export interface SignInOfferProps {
  /** The password field of the form: the parent may already have typed their password there. */
  passwordId: string;
  /** Where a sign-in goes on to: the signed-in checkout, which puts the kept fields back. */
  next: string;
}

/**
 * Offered under an address that already has an account, at guest checkout: a parent whose
 * card was declined last time comes back to a wall otherwise. It signs in through the same
 * door as the sign-in form (POST /api/auth/login, so the same throttles and lockout), with the
 * password typed in the form, and goes on to the signed-in checkout; the cart joins the account.
 */
export function SignInOffer({ email, emailId, passwordId, next }: SignInOfferProps & { email: string; emailId: string }) {
  const [busy, setBusy] = useState(false);

  // The browser's password manager may now offer the saved password rather than a new one.
  useEffect(() => {
    const password = document.getElementById(passwordId);
    password?.setAttribute('autocomplete', 'current-password');
    return () => password?.setAttribute('autocomplete', 'new-password');
  }, [passwordId]);

  // Enter in the password field signs in, rather than sending the form to make an account.
  useEffect(() => {
    const password = document.getElementById(passwordId);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      void signIn();
    };
    password?.addEventListener('keydown', onKey);
    return () => password?.removeEventListener('keydown', onKey);
  });

  async function signIn(): Promise<void> {
    const password = document.getElementById(passwordId) as HTMLInputElement | null;
    const form = password?.form;
    if (!password || !form || busy) return;
    const ids = { email: emailId, password: passwordId };
    const refuse = (title: string, problem: { field?: 'password'; message: string }) => {
      // A problem with the password is told beside it and the focus goes there, where it is retyped.
      showProblems(form, { title, problems: [problem] }, ids, { focus: !problem.field });
      if (problem.field) password.focus();
    };
    if (!password.value) return refuse(M.missingLogin.title, { field: 'password', message: F.password });
    clearProblems(form);
    setBusy(true);
    try {
      const { redirectUrl, csrfToken } = await api<{ redirectUrl: string; csrfToken: string }>('POST', '/api/auth/login', {
        email,
        password: password.value,
        next,
      });
      rememberCsrfToken(csrfToken);
      // Pay was pressed: the card form goes on paying here, with the card still typed. Not after
      // a temporary password, which must be changed first (redirectUrl says where).
      if (redirectUrl === next) {
        const signedIn = new CustomEvent<SignedInDetail>(SIGNED_IN_EVENT, { cancelable: true, detail: { csrfToken } });
        if (!document.dispatchEvent(signedIn)) return;
      }
      // The page is leaving: the button stays busy until it has.
      location.assign(redirectUrl);
    } catch (err) {
      // A secured account goes to its alert, an operator's sign-in to its second step.
      if (err instanceof ApiError && err.redirectUrl) return location.assign(err.redirectUrl);
      setBusy(false);
      const wrongPassword = err instanceof ApiError && err.status === 401;
      refuse(M.loginFailed.title, {
        ...(wrongPassword ? { field: 'password' as const } : {}),
        message: messageOf(err, 'Something went wrong. Please try again.'),
      });
    }
  }

  return (
    <span className="form-actions">
      <span>{M.returningParent.text}</span>
      <button type="button" className="secondary" aria-busy={busy || undefined} onClick={() => void signIn()}>
        {busy ? M.returningParent.busy : M.returningParent.button}
      </button>
    </span>
  );
}
