// Forms whose values come from the address (the catalogue's search, age band and sort; the
// header's search box) show what the address says, also after the back button: the browser
// would otherwise put back what was chosen last on that page before it was left, above
// results that do not match it.
export function initAddressForms(): void {
  addEventListener('pageshow', () => {
    for (const form of document.querySelectorAll<HTMLFormElement>('form[data-from-address]')) form.reset();
  });
}
