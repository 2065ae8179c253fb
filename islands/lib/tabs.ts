// Tabs over server-rendered panels. Without JavaScript each tab is a link to its own page
// (?tab=...); with it, tabs switch in place and follow the ARIA tabs keyboard pattern.
export function initTabs(): void {
  for (const container of document.querySelectorAll<HTMLElement>('[data-tabs]')) {
    const tabs = [...container.querySelectorAll<HTMLAnchorElement>('[role="tab"]')];
    const select = (tab: HTMLAnchorElement, focus: boolean) => {
      for (const other of tabs) {
        const selected = other === tab;
        other.setAttribute('aria-selected', String(selected));
        other.tabIndex = selected ? 0 : -1;
        const panel = document.getElementById(other.getAttribute('aria-controls') ?? '');
        if (panel) panel.hidden = !selected;
      }
      history.replaceState(null, '', tab.href);
      if (focus) tab.focus();
    };
    tabs.forEach((tab, index) => {
      tab.addEventListener('click', (event) => {
        event.preventDefault();
        select(tab, false);
      });
      tab.addEventListener('keydown', (event) => {
        const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
        if (!step) return;
        event.preventDefault();
        select(tabs[(index + step + tabs.length) % tabs.length]!, true);
      });
    });
  }
}
