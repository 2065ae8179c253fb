import { clearProblems, showButtonProblem } from './form-problems.ts';
import { showToast } from './toast.ts';

// The book page's share button: the system share sheet where there is one, else copy the link.
export function initShare(): void {
  // Drawn from the first paint where script runs (data-needs-script), so the buy links beside it never move.
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-share]')) {
    button.addEventListener('click', () => void share(button));
  }
}

async function share(button: HTMLButtonElement): Promise<void> {
  const row = button.parentElement ?? document.body;
  clearProblems(row);
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
    // Beside the button, where the parent looks: the link is still in the address bar to copy.
    showButtonProblem(row, button, 'Share Failed: Unable to share or copy link. Try selecting the URL manually.');
  }
}
