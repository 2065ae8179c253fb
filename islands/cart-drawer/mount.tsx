import { createRoot } from 'react-dom/client';
import { CartDrawer, type CartDrawerProps } from './CartDrawer.tsx';

// Replaces the server's fallback link (to /cart) with the drawer and its button.
export function mount(element: HTMLElement, props: CartDrawerProps): void {
  createRoot(element).render(<CartDrawer {...props} />);
}
