import { createRoot } from 'react-dom/client';
import { initKeptFields } from '../lib/kept-fields.ts';
import { CardForm, type CardFormProps } from './CardForm.tsx';

export function mount(element: HTMLElement, props: CardFormProps): void {
  // The checkout's own script: what the parent typed before the page was loaded again comes back.
  initKeptFields();
  createRoot(element).render(<CardForm {...props} />);
}
