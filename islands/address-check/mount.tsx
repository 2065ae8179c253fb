import { createRoot } from 'react-dom/client';
import { AddressCheck, type AddressCheckProps } from './AddressCheck.tsx';

export function mount(element: HTMLElement, props: AddressCheckProps): void {
  createRoot(element).render(<AddressCheck {...props} />);
}
