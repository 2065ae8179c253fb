// A returning parent at guest checkout: the card form and the live email check tell each other
// about it with these two events on document.

/** Pay was refused because the address already has an account: the email check offers the sign-in (detail: the input's id). */
export const EMAIL_TAKEN_EVENT = 'checkout:email-taken';

/**
 * The offer signed the parent in (detail: the new session's form token). Cancelable: the card
 * form cancels it when Pay was pressed, and goes on paying where the parent is, the card still
 * typed; otherwise the offer goes on to the signed-in checkout.
 */
export const SIGNED_IN_EVENT = 'checkout:signed-in';

export interface SignedInDetail {
  csrfToken: string;
}
