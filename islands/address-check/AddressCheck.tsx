import { useEffect, useRef, useState } from 'react';
import { api } from '../lib/api.ts';
import { showToast } from '../lib/toast.ts';

/** Said beside the address fields when one of them is empty (the spec's words). */
const ADDRESS_MISSING = { title: 'Missing Information', text: 'Please enter a complete address first' };
const MISSING_ID = 'address-check-problem';

interface Validation {
  isValid: boolean;
  confidence: number;
  suggestions: string[];
}

export interface AddressCheckProps {
  addressId: string;
  cityId: string;
  zipId: string;
}

const input = (id: string) => document.getElementById(id) as HTMLInputElement | null;

/** 'street, city, state zip' -> the three fields (docs/architecture.md, "What the API answers"). */
export function splitSuggestion(suggestion: string): { address: string; city: string; zipCode: string } {
  const [address = '', city = '', stateZip = ''] = suggestion.split(', ');
  return { address, city, zipCode: stateZip.split(' ').at(-1) ?? '' };
}

/**
 * The ZIP code's own place when the one suggestion keeps the typed ZIP code and only changes the
 * city ('ZIP code 33139 is in Miami Beach, FL'), so the parent sees why the city changed.
 */
export function zipPlaceNote(typed: { city: string; zipCode: string }, suggestions: string[]): string | null {
  const [only, ...others] = suggestions;
  if (!only || others.length) return null;
  const [, city = '', stateZip = ''] = only.split(', ');
  const [state = '', zipCode = ''] = stateZip.split(' ');
  if (zipCode !== typed.zipCode || city.toLowerCase() === typed.city.trim().toLowerCase()) return null;
  return `ZIP code ${zipCode} is in ${city}, ${state}.`;
}

/** 'Validate Address' with its suggestions and the 'Address Verification Failed' panel. */
export function AddressCheck({ addressId, cityId, zipId }: AddressCheckProps) {
  const [result, setResult] = useState<Validation | null>(null);
  // The city and ZIP code the shown result answers.
  const [asked, setAsked] = useState({ city: '', zipCode: '' });
  const [busy, setBusy] = useState(false);
  const verified = useRef<HTMLParagraphElement>(null);
  const [chosen, setChosen] = useState(false);
  // The empty fields' ids while 'Missing Information' is shown beside them.
  const [missing, setMissing] = useState<string[]>([]);

  // The chosen suggestion's button is gone: focus moves to the message that replaced it.
  useEffect(() => {
    if (chosen) verified.current?.focus();
  }, [chosen]);

  // Each empty field is marked and read with the message, as a refused form's fields are; a
  // field the parent fills loses its mark at once, and the message goes with the last one.
  useEffect(() => {
    const fields = missing.map(input).filter((field): field is HTMLInputElement => field !== null);
    for (const field of fields) markMissing(field, true);
    const onInput = (event: Event) => {
      const field = event.target as HTMLInputElement;
      if (field.value.trim()) setMissing((ids) => ids.filter((id) => id !== field.id));
    };
    for (const field of fields) field.addEventListener('input', onInput);
    return () => {
      for (const field of fields) {
        field.removeEventListener('input', onInput);
        markMissing(field, false);
      }
    };
  }, [missing]);

  const validate = async () => {
    // Busy, not disabled: a disabled button would drop the keyboard focus to the page.
    if (busy) return;
    const body = {
      address: input(addressId)?.value.trim() ?? '',
      city: input(cityId)?.value.trim() ?? '',
      zipCode: input(zipId)?.value.trim() ?? '',
    };
    const empty = (
      [
        [addressId, body.address],
        [cityId, body.city],
        [zipId, body.zipCode],
      ] as const
    ).flatMap(([id, value]) => (value ? [] : [id]));
    setMissing(empty);
    if (empty.length) {
      setResult(null);
      return;
    }
    setBusy(true);
    // A failed request reads as an address that could not be verified.
    const answer = await api<Validation>('POST', '/api/validate-address', body).catch(() => ({
      isValid: false,
      confidence: 0,
      suggestions: [],
    }));
    setResult(answer);
    setAsked({ city: body.city, zipCode: body.zipCode });
    setChosen(false);
    setBusy(false);
  };

  const choose = (suggestion: string) => {
    const parts = splitSuggestion(suggestion);
    for (const [id, value] of [
      [addressId, parts.address],
      [cityId, parts.city],
      [zipId, parts.zipCode],
    ] as const) {
      const field = input(id);
      if (!field) continue;
      field.value = value;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
    setResult({ isValid: true, confidence: 100, suggestions: [] });
    setChosen(true);
    showToast({ title: 'Address Updated', text: 'We filled in the suggested address.' });
  };

  const note = result && !result.isValid ? zipPlaceNote(asked, result.suggestions) : null;

  return (
    <div className="address-check-inner">
      <button
        type="button"
        className="secondary outline"
        onClick={() => void validate()}
        aria-busy={busy || undefined}
        aria-describedby={missing.length ? MISSING_ID : undefined}
      >
        Validate Address
      </button>
      {missing.length > 0 && (
        // No aria-labelledby: the fields and the button are described by it, and a name would stand for all of it.
        <div className="form-problems" id={MISSING_ID} role="alert">
          <h2 className="form-problems-title">{ADDRESS_MISSING.title}</h2>
          <p>{ADDRESS_MISSING.text}</p>
        </div>
      )}
      <div aria-live="polite">
        {result?.isValid && (
          <p className="address-ok" ref={verified} tabIndex={-1}>
            Address verified ({result.confidence}% confidence).
          </p>
        )}
        {result && !result.isValid && (
          <div className="address-failed" role="alert">
            <p className="address-failed-title">Address Verification Failed</p>
            <p>
              We couldn't verify this address. An unverified address may delay delivery by 3-7 business days, and a parcel that cannot be
              delivered is returned to us.
            </p>
            <p>You can still continue; please check the street, city and ZIP code.</p>
          </div>
        )}
        {result && result.suggestions.length > 0 && !(result.isValid && result.suggestions.length === 1) && (
          <div className="address-suggestions">
            {note && <p>{note}</p>}
            <p>Did you mean:</p>
            <ul>
              {result.suggestions.map((s) => (
                <li key={s}>
                  <button type="button" className="outline" onClick={() => choose(s)}>
                    {s}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}

/** Marks an empty address field, or takes the mark away, leaving any other description it has. */
function markMissing(field: HTMLInputElement, on: boolean): void {
  const described = (field.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && id !== MISSING_ID);
  if (on) described.push(MISSING_ID);
  if (described.length) field.setAttribute('aria-describedby', described.join(' '));
  else field.removeAttribute('aria-describedby');
  // The checkout's own summary may have marked it too: it stays invalid while either says so.
  if (on) field.setAttribute('aria-invalid', 'true');
  else if (!field.hasAttribute('data-problem-marked')) field.removeAttribute('aria-invalid');
}
