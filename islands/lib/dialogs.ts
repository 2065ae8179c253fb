// Links marked data-dialog-open="id" open that <dialog> instead of navigating; without
// JavaScript they lead to a page with the same form.
export function initDialogs(): void {
  for (const opener of document.querySelectorAll<HTMLElement>('[data-dialog-open]')) {
    const dialog = document.getElementById(opener.dataset.dialogOpen ?? '');
    if (!(dialog instanceof HTMLDialogElement)) continue;
    opener.addEventListener('click', (event) => {
      event.preventDefault();
      dialog.showModal();
      dialog.querySelector<HTMLInputElement>('input:not([type="hidden"])')?.focus();
    });
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) dialog.close(); // a click on the backdrop
    });
    for (const closer of dialog.querySelectorAll<HTMLElement>('[data-dialog-close]')) {
      closer.addEventListener('click', () => {
        dialog.close();
        opener.focus();
      });
    }
  }
}
