import { createRoot } from 'react-dom/client';
import type { ComponentProps } from 'react';
import { EmailCheck } from './EmailCheck.tsx';

export function mount(element: HTMLElement, props: ComponentProps<typeof EmailCheck>): void {
  createRoot(element).render(<EmailCheck {...props} />);
}
