import { formatUsdDecimal } from '../../src/lib/money.ts';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { api } from '../lib/api.ts';
import type { Payer, PayResult } from './payer.ts';
import { CARD_CHECK_ADVICE } from './payer.ts';

interface SandboxAnswer {
  status: string;
  error: string | null;
}

/**
 * Card entry for the built-in sandbox (no Stripe keys configured). It behaves like Stripe's
 * test mode: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined and
 * 4000 0025 0000 3155 asks for a 3D Secure step, shown here as the bank's dialog.
 */
export function SandboxCard({ payerRef, amount }: { payerRef: Ref<Payer>; amount: string | null }) {
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '' });
  const [challenge, setChallenge] = useState<((passed: boolean) => void) | null>(null);

  useImperativeHandle(payerRef, () => ({
    async confirm(intent): Promise<PayResult> {
      const body = { paymentIntentId: intent.paymentIntentId, clientSecret: intent.clientSecret };
      let answer = await api<SandboxAnswer>('POST', '/api/sandbox/confirm', {
        ...body,
        cardNumber: card.number,
        expiry: card.expiry,
        cvc: card.cvc,
      });
      if (answer.status === 'requires_action') {
        const passed = await new Promise<boolean>((resolve) => setChallenge(() => resolve));
        setChallenge(null);
        answer = await api<SandboxAnswer>('POST', '/api/sandbox/authenticate', { ...body, succeed: passed });
      }
      return answer.status === 'succeeded' ? { ok: true } : { ok: false, message: answer.error ?? CARD_CHECK_ADVICE };
    },
  }));

  const field = (key: keyof typeof card) => (event: React.ChangeEvent<HTMLInputElement>) => setCard({ ...card, [key]: event.target.value });

  return (
    <div className="sandbox-card">
      <p className="test-mode-note">
        <strong>Test mode.</strong> Pay with 4242 4242 4242 4242, any future date and any CVC. No real card is charged.
      </p>
      <label htmlFor="card-number">Card number</label>
      <input
        id="card-number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        maxLength={23}
        value={card.number}
        onChange={field('number')}
        required
      />
      <div className="grid">
        <div>
          <label htmlFor="card-expiry">Expiry (MM/YY)</label>
          <input
            id="card-expiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            maxLength={5}
            value={card.expiry}
            onChange={field('expiry')}
            required
          />
        </div>
        <div>
          <label htmlFor="card-cvc">CVC</label>
          <input
            id="card-cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={card.cvc}
            onChange={field('cvc')}
            required
          />
        </div>
      </div>
      {challenge && <Challenge amount={amount} answer={challenge} />}
    </div>
  );
}

/**
 * The bank's 3D Secure step, as a modal <dialog>: focus stays inside it, Escape counts as
 * failing it, and focus goes back to where it was when it closes.
 */
function Challenge({ amount, answer }: { amount: string | null; answer: (passed: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="challenge-title"
      onCancel={(event) => {
        event.preventDefault();
        answer(false);
      }}
    >
      <article>
        <h2 id="challenge-title">Confirm this payment</h2>
        <p>
          Your bank asks you to approve a payment{amount ? ` of ${formatUsdDecimal(amount)}` : ''} to Little Lantern Books. (3D Secure test)
        </p>
        <div className="form-actions">
          <button type="button" onClick={() => answer(true)} autoFocus>
            Complete authentication
          </button>
          <button type="button" className="secondary outline" onClick={() => answer(false)}>
            Fail authentication
          </button>
        </div>
      </article>
    </dialog>
  );
}
