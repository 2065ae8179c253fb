// The packing slip's Print button. It starts hidden: without JavaScript the page says to use
// the browser's own Print instead.
export function initPrint(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-print]')) {
    button.hidden = false;
    button.addEventListener('click', () => window.print());
  }
}
