// Finds [data-island] elements and mounts each island's chunk on demand. Props come from
// a <script type="application/json"> inside the element. An island marked
// data-island-load="interaction" downloads nothing until the visitor reaches for it:
// pointer or focus starts the download, the click mounts it and asks it to open.
// data-island-load="idle" mounts once the browser has nothing better to do after the first
// paint; the others start downloading as soon as the page has been painted. Neither then
// shares a slow connection's bandwidth with the first paint.

type IslandModule = { mount(element: HTMLElement, props: object): void };

const registry: Record<string, () => Promise<IslandModule>> = {
  'cart-drawer': () => import('./cart-drawer/mount.tsx'),
  'email-check': () => import('./email-check/mount.tsx'),
  'address-check': () => import('./address-check/mount.tsx'),
  'card-form': () => import('./card-form/mount.tsx'),
};

export function mountIslands(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-island]')) {
    const load = registry[element.dataset.island ?? ''];
    if (!load) continue;
    const when = element.dataset.islandLoad;
    if (when === 'interaction') whenReachedFor(element, load);
    else if (when === 'idle') afterFirstPaint(() => whenIdle(() => void mount(element, load, {})));
    else afterFirstPaint(() => void mount(element, load, {}));
  }
}

/**
 * Runs `run` once the browser reports the page's first paint. A hidden tab paints nothing and a
 * browser without paint timing reports nothing: there it runs at once, and never later than a
 * second in any case.
 */
export function afterFirstPaint(run: () => void): void {
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    observer?.disconnect();
    run();
  };
  const observer =
    document.visibilityState !== 'hidden' && 'PerformanceObserver' in window && PerformanceObserver.supportedEntryTypes?.includes('paint')
      ? new PerformanceObserver(once)
      : undefined;
  if (!observer) return void setTimeout(once, 0);
  observer.observe({ type: 'paint', buffered: true });
  setTimeout(once, 1000);
}

function whenReachedFor(element: HTMLElement, load: () => Promise<IslandModule>): void {
  const preload = () => void load();
  for (const type of ['pointerenter', 'touchstart', 'focusin'] as const) {
    element.addEventListener(type, preload, { once: true, passive: true });
  }
  element.addEventListener(
    'click',
    (event) => {
      event.preventDefault();
      void mount(element, load, { openOnMount: true });
    },
    { once: true },
  );
}

function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

async function mount(element: HTMLElement, load: () => Promise<IslandModule>, extra: Record<string, unknown>): Promise<void> {
  if (element.dataset.mounted) return;
  element.dataset.mounted = 'true';
  const props = { ...readProps(element), ...extra };
  const island = await load();
  island.mount(element, props);
}

function readProps(element: HTMLElement): Record<string, unknown> {
  const script = element.querySelector<HTMLScriptElement>(':scope > script[type="application/json"]');
  return script?.textContent ? (JSON.parse(script.textContent) as Record<string, unknown>) : {};
}
