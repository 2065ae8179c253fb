// Finds [data-island] elements and mounts each island's chunk on demand.
// Props come from a <script type="application/json"> inside the element.

type Mount = (element: HTMLElement, props: unknown) => void;
type IslandModule = { mount: Mount };

/** Each island's chunk, imported only when a page has it. */
const registry: Record<string, () => Promise<IslandModule>> = {};

export function registerIsland(name: string, load: () => Promise<IslandModule>): void {
  registry[name] = load;
}

export function mountIslands(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-island]')) {
    const load = registry[element.dataset.island ?? ''];
    if (!load || element.dataset.mounted) continue;
    element.dataset.mounted = 'true';
    void load().then(({ mount }) => mount(element, readProps(element)));
  }
}

function readProps(element: HTMLElement): unknown {
  const script = element.querySelector<HTMLScriptElement>(':scope > script[type="application/json"]');
  return script?.textContent ? JSON.parse(script.textContent) : {};
}
