import { useEffect, useState } from 'react';
import { ACCOUNT_MESSAGES as M } from '../../src/features/accounts/accounts.messages.ts';
import { EMAIL_PATTERN } from '../../src/lib/email.ts';
import { api } from '../lib/api.ts';
import { EMAIL_TAKEN_EVENT, SIGNED_IN_EVENT } from '../lib/checkout-sign-in.ts';
import { SignInOffer, type SignInOfferProps } from './SignInOffer.tsx';

export const EMAIL_CHECK_DEBOUNCE_MS = 1000;

export type EmailCheckState = 'empty' | 'invalid' | 'checking' | 'available' | 'taken' | 'unverified';

const TEXT: Record<EmailCheckState, string> = {
  empty: '',
  invalid: M.badEmail,
  checking: 'Checking...',
  available: M.emailAvailable,
  taken: M.emailTaken,
  unverified: M.emailUnverified,
};

/**
 * The sign-up form's live email check (docs/architecture.md, "Sign-in, sessions and lockout"). It watches the server-rendered
 * input named by inputId and says, 1 second after typing stops, whether the address is free;
 * while the parent types and while the server answers, it says it is checking. With `signIn`
 * (the guest checkout), an address that has an account is offered a sign-in right there.
 */
export function EmailCheck({ inputId, signIn }: { inputId: string; signIn?: SignInOfferProps }) {
  const [email, setEmail] = useState(() => inputValue(inputId));
  const [state, setState] = useState<EmailCheckState>('empty');
  // Signed in with the offer, on this page: that is all there is left to say.
  const [signedIn, setSignedIn] = useState(false);

  useEffect(() => {
    const input = document.getElementById(inputId) as HTMLInputElement | null;
    const onInput = () => setEmail(input?.value ?? '');
    input?.addEventListener('input', onInput);
    return () => input?.removeEventListener('input', onInput);
  }, [inputId]);

  useEffect(() => {
    if (!signIn) return;
    // Pay was refused for an address that has an account: the offer at once, not after a check.
    const onTaken = (event: Event) => {
      if ((event as CustomEvent<{ inputId: string }>).detail.inputId === inputId) setState('taken');
    };
    const onSignedIn = () => setSignedIn(true);
    document.addEventListener(EMAIL_TAKEN_EVENT, onTaken);
    document.addEventListener(SIGNED_IN_EVENT, onSignedIn);
    return () => {
      document.removeEventListener(EMAIL_TAKEN_EVENT, onTaken);
      document.removeEventListener(SIGNED_IN_EVENT, onSignedIn);
    };
  }, [inputId, signIn]);

  useEffect(() => {
    const value = email.trim();
    if (!value) return setState('empty');
    // The verdict was about the address as it was: drop it at once rather than leave
    // 'Please enter a valid email address' under an address that may now be fine.
    setState('checking');
    let cancelled = false;
    const timer = setTimeout(() => {
      // A read-only address is settled (the checkout has made its account): nothing to ask.
      if ((document.getElementById(inputId) as HTMLInputElement | null)?.readOnly) return setState('empty');
      if (!EMAIL_PATTERN.test(value)) return setState('invalid');
      api<{ exists: boolean }>('POST', '/api/check-email', { email: value }).then(
        ({ exists }) => !cancelled && setState(exists ? 'taken' : 'available'),
        () => !cancelled && setState('unverified'),
      );
    }, EMAIL_CHECK_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [email, inputId]);

  useEffect(() => {
    const input = document.getElementById(inputId);
    if (!input) return;
    // Only its own mark is taken back: a refusal the server or the form drew stays until the
    // form is sent again (src/web/form-problems.ts).
    if (state === 'invalid' || state === 'taken') {
      if (input.getAttribute('aria-invalid') !== 'true') {
        input.setAttribute('aria-invalid', 'true');
        input.dataset.emailCheckMarked = '';
      }
    } else if (input.dataset.emailCheckMarked !== undefined) {
      input.removeAttribute('aria-invalid');
      delete input.dataset.emailCheckMarked;
    }
  }, [inputId, state]);

  if (signedIn) return <span className="email-check">{M.welcomeBack.text}</span>;
  return (
    <>
      <span className={`email-check email-check-${state}`}>{TEXT[state]}</span>
      {state === 'taken' && signIn && <SignInOffer {...signIn} email={email.trim()} emailId={inputId} />}
    </>
  );
}

function inputValue(id: string): string {
  return (document.getElementById(id) as HTMLInputElement | null)?.value ?? '';
}
