import { createRoot } from 'react-dom/client';
import { CardForm, type CardFormProps } from './CardForm.tsx';

export function mount(element: HTMLElement, props: CardFormProps): void {
  createRoot(element).render(<CardForm {...props} />);
}
