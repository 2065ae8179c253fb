import { createRoot } from 'react-dom/client';
import { EmailCheck } from './EmailCheck.tsx';

export function mount(element: HTMLElement, props: { inputId: string }): void {
  createRoot(element).render(<EmailCheck {...props} />);
}
