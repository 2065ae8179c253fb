// What a parent typed into the checkout outlives a reload of the page: applying or removing a
// discount code posts its own small form and comes back to a fresh page, as do a refresh and
// the back button. Fields marked data-kept are saved to this tab's sessionStorage as they are
// typed and put back when the checkout's script loads (the card form's island); passwords and
// card details are never marked, and a password field is skipped even if one were. A paid
// order forgets them.
//   <input name="city" data-kept>
const STORE = 'little-lantern:checkout-fields';

type Kept = Record<string, string>;

export function initKeptFields(root: ParentNode = document, storage: Storage | null = sessionStorageOrNull()): void {
  if (!storage) return;
  const fields = [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('[data-kept]')].filter(
    (field) => field.name && field.type !== 'password',
  );
  if (!fields.length) return;
  const kept = read(storage);
  for (const field of fields) {
    const value = kept[field.name];
    if (typeof value !== 'string' || value === field.value) continue;
    field.value = value;
    // As if typed: the counters, the totals and the live checks that listen see it.
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  const save = () => write(storage, Object.fromEntries(fields.map((field) => [field.name, field.value])));
  for (const field of fields) {
    field.addEventListener('input', save);
    field.addEventListener('change', save);
  }
}

/** After a paid order: nothing typed for it stays behind in the tab. */
export function forgetKeptFields(storage: Storage | null = sessionStorageOrNull()): void {
  try {
    storage?.removeItem(STORE);
  } catch {
    // Storage refused (a private window's quota): there is nothing to forget.
  }
}

function read(storage: Storage): Kept {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(STORE) ?? '{}');
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

function write(storage: Storage, kept: Kept): void {
  try {
    storage.setItem(STORE, JSON.stringify(kept));
  } catch {
    // Storage full or refused: the fields still work, they just will not outlive a reload.
  }
}

/** Reading window.sessionStorage itself throws where a browser blocks storage. */
function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
