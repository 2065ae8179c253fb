// Toasts: one at a time, 5000 ms by default, dismissible, swipe right past 50 px
// dismisses, F8 focuses the notifications region (docs/architecture.md, "Messages and toasts").

export const TOAST_DURATION_MS = 5000;
export const SWIPE_THRESHOLD_PX = 50;

export interface ToastInput {
  title: string;
  text?: string;
  /** Toasts only confirm success: a failure is told where it happened (islands/lib/form-problems.ts). */
  variant?: 'success';
  durationMs?: number;
}

let timer: ReturnType<typeof setTimeout> | undefined;

function region(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-toasts]');
}

export function showToast({ title, text = '', variant = 'success', durationMs = TOAST_DURATION_MS }: ToastInput): void {
  const list = region()?.querySelector('ol');
  if (!list) return;
  list.replaceChildren(); // one at a time
  const item = document.createElement('li');
  item.className = `toast toast-${variant}`;
  item.dataset.toast = '';
  const body = document.createElement('div');
  body.setAttribute('role', 'status');
  for (const [cls, value] of [
    ['toast-title', title],
    ['toast-text', text],
  ] as const) {
    if (!value) continue;
    const p = document.createElement('p');
    p.className = cls;
    p.textContent = value;
    body.append(p);
  }
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'toast-close';
  close.setAttribute('aria-label', 'Dismiss notification');
  close.dataset.toastClose = '';
  close.textContent = '\u00d7';
  item.append(body, close);
  list.append(item);
  arm(item, durationMs);
}

export function dismissToast(item: HTMLElement): void {
  clearTimeout(timer);
  item.dataset.leaving = '';
  setTimeout(() => item.remove(), 200);
}

function arm(item: HTMLElement, durationMs: number): void {
  clearTimeout(timer);
  timer = setTimeout(() => dismissToast(item), durationMs);
  item.querySelector<HTMLElement>('[data-toast-close]')?.addEventListener('click', (e) => {
    e.preventDefault(); // the server's close link works by its fragment; with script the toast just goes
    dismissToast(item);
  });
  enableSwipe(item);
}

function enableSwipe(item: HTMLElement): void {
  let startX: number | undefined;
  item.addEventListener('pointerdown', (e) => {
    startX = e.clientX;
  });
  item.addEventListener('pointermove', (e) => {
    if (startX === undefined) return;
    const dx = Math.max(0, e.clientX - startX);
    item.style.transform = `translateX(${dx}px)`;
  });
  const end = (e: PointerEvent) => {
    if (startX === undefined) return;
    const dx = e.clientX - startX;
    startX = undefined;
    if (dx > SWIPE_THRESHOLD_PX) dismissToast(item);
    else item.style.transform = '';
  };
  item.addEventListener('pointerup', end);
  item.addEventListener('pointercancel', end);
}

/** Arms a toast the server rendered (a flash message) and the F8 shortcut. */
export function initToasts(): void {
  region()?.setAttribute('data-floating', '');
  const existing = region()?.querySelector<HTMLElement>('[data-toast]');
  if (existing) arm(existing, TOAST_DURATION_MS);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'F8') {
      e.preventDefault();
      region()?.focus();
    }
  });
}
