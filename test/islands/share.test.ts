// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initShare } from '../../islands/lib/share.ts';

// The book page's Share button without a share sheet: it copies the link, and a failure is told
// beside the button, read with it, instead of in a toast that covers the page and fades.

let copy: (text: string) => Promise<void>;

beforeEach(() => {
  vi.stubGlobal('navigator', { share: undefined, clipboard: { writeText: (text: string) => copy(text) } });
  document.body.innerHTML = `
    <div data-toasts><ol></ol></div>
    <div class="buy-elsewhere">
      <button type="button" class="share-button" data-share data-share-title="Pip">Share</button>
      <a href="https://example.com/pip">Buy on Bookshop</a>
    </div>`;
  initShare();
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const button = () => document.querySelector<HTMLButtonElement>('[data-share]')!;
const problem = () => document.querySelector<HTMLElement>('.buy-elsewhere [data-field-problem]');

describe('Share', () => {
  it('tells a failed copy beside the button, described by it, with no toast; a later copy clears it', async () => {
    copy = () => Promise.reject(new Error('denied'));
    button().click();
    const shown = await vi.waitFor(() => {
      const drawn = problem();
      if (!drawn) throw new Error('no message beside Share yet');
      return drawn;
    });
    expect(shown.getAttribute('role')).toBe('alert');
    expect(shown.textContent).toBe('Share Failed: Unable to share or copy link. Try selecting the URL manually.');
    expect(button().getAttribute('aria-describedby')).toBe(shown.id);
    expect(document.querySelector('[data-toasts] [data-toast]')).toBeNull();

    copy = () => Promise.resolve();
    button().click();
    await vi.waitFor(() => expect(problem()).toBeNull());
    expect(button().hasAttribute('aria-describedby')).toBe(false);
  });
});
