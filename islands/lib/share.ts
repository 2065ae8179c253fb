import { showToast } from './toast.ts';

// The book page's share button: the system share sheet where there is one, else copy the link.
export function initShare(): void {
  // Drawn from the first paint where script runs (data-needs-script), so the buy links beside it never move.
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-share]')) {
    button.addEventListener('click', () => void share(button));
  }
}

async function share(button: HTMLButtonElement): Promise<void> {
  const data = { title: button.dataset.shareTitle ?? document.title, text: button.dataset.shareText ?? '', url: location.href };
  try {
    if (navigator.share) {
      await navigator.share(data);
      return;
    }
    await navigator.clipboard.writeText(data.url);
    showToast({ title: 'Link Copied!', text: 'Book link copied to clipboard. Share it with friends!' });
  } catch (err) {
    if ((err as Error).name === 'AbortError') return; // the parent closed the share sheet
    showToast({ title: 'Share Failed', text: 'Unable to share or copy link. Try selecting the URL manually.', variant: 'error' });
  }
}
