import { readFileSync } from 'node:fs';
import type { AtRule, Declaration, Plugin, Root } from 'postcss';
import { compile } from 'sass';

// Pico's modules come whole. These parts of them style what no page of the shop has: a
// selector naming one of them (outside a :not(), which would widen what it matches) is dropped,
// and a rule left with none goes. Before using one of these, take it out of the list.
const UNUSED = [
  /:host\b/, // shadow DOM hosts: the shop has none
  /\[data-theme="?dark"?\]/, // the dark scheme: the layout forces the light one
  /\[type="?file"?\]/, // file inputs
  /::file-selector-button/,
  /\[role="?switch"?\]/, // switches
  /\.contrast\b/, // the contrast variant of buttons and links
  /\[aria-label="?breadcrumb"?\]/, // the book page's trail says "Breadcrumb", which this never matched
  /(^|[\s>+~(,])(kbd|samp|pre|h5|h6)\b/, // elements no template writes
  // More of them, standing alone (a list such as :where(audio, img, svg) stays for the ones used).
  /(^|[\s>+~])(h4|blockquote|mark|abbr|hgroup|hr|sub|sup|ins|del|iframe|audio|video|canvas|progress)\b/,
  /(^|[\s>+~])\[(type=reset|role=link)\]/, // reset buttons and links drawn by a role
  /(button|\[type=\w+\]|\[role=button\])\[aria-current/, // a button marked current: only links are
  /\[aria-invalid=("|')?false/, // a field marked valid: a problem is marked, then the mark removed
  /\[dir=("|')?rtl/, // right-to-left pages
  /:indeterminate/, // a checkbox half checked, which only a script could set
  /\.modal-is-(open|opening|closing)\b/, // the classes of Pico's own modal script: dialogs open natively
  /\.dropdown\b/, // the dropdown module is left out (pico.scss)
];

/** The selector without the spaces inside its lists: in `:where(a, [role=link])` the space is no descendant combinator. */
const tight = (selector: string) =>
  selector
    .replace(/\s*,\s*/g, ',')
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')');

/** The selector with the insides of its :not(...) left out. */
function outsideNot(selector: string): string {
  let out = '';
  for (let i = 0; i < selector.length;) {
    if (selector.startsWith(':not(', i)) {
      for (let depth = 0; i < selector.length; i++) {
        if (selector[i] === '(') depth++;
        if (selector[i] === ')' && --depth === 0) break;
      }
      i++;
      continue;
    }
    out += selector[i++];
  }
  return out;
}

const readIn = (css: string) => css.match(/var\(--[\w-]+/g)?.map((v) => v.slice(4)) ?? [];

/**
 * The admin stylesheet comes on top of the shop's and reads some of the shop's custom
 * properties (the table's colours, the form's spacing); those it declares itself (its fields'
 * icons) the shop's need not carry.
 */
function readByAdmin(): string[] {
  const admin = compile('islands/pico/admin.scss', { loadPaths: ['node_modules'] }).css + readFileSync('islands/admin.css', 'utf8');
  const declared = new Set(admin.match(/--[\w-]+(?=\s*:)/g));
  return readIn(admin).filter((property) => !declared.has(property));
}

/** Pico's custom properties that nothing left reads: its own rules, the shop's theme or the admin's rules. */
function dropUnreadProperties(root: Root, alsoRead: string[]): void {
  for (;;) {
    const read = new Set([...readIn(root.toString()), ...alsoRead]);
    let dropped = 0;
    root.walkDecls(/^--pico-/, (decl) => {
      if (!read.has(decl.prop)) {
        decl.remove();
        dropped++;
      }
    });
    if (!dropped) return;
  }
}

/**
 * Pico's custom properties that a later rule for the same selectors, in the same place, sets
 * again (the shop's theme sets its own colours over Pico's light scheme): the first never counts.
 */
function dropOverriddenProperties(root: Root): void {
  const last = new Map<string, Declaration>();
  root.walkDecls(/^--/, (decl) => {
    const rule = decl.parent;
    if (rule?.type !== 'rule') return;
    // Written alike: [data-theme='light'] in the theme is [data-theme=light] in Pico.
    const same = (selector: string) => selector.replace(/=(['"])([\w-]*)\1\]/g, '=$2]').replace(/\s+/g, ' ');
    let where = rule.selectors.map(same).sort().join(',');
    for (let at = rule.parent; at && at.type === 'atrule'; at = at.parent)
      where = `@${(at as AtRule).name} ${(at as AtRule).params}{${where}`;
    const key = `${where}|${decl.prop}`;
    const earlier = last.get(key);
    if (earlier && (decl.important || !earlier.important)) earlier.remove();
    last.set(key, decl);
  });
  root.walkRules((rule) => {
    if (rule.nodes.length === 0) rule.remove();
  });
}

/** For the shop's stylesheets (styles.css, admin.css), with Pico's parts imported into them. */
export function dropUnusedPico(): Plugin {
  return {
    postcssPlugin: 'drop-unused-pico',
    OnceExit(root) {
      if (!/islands\/(styles|admin)\.css$/.test(root.source?.input.file ?? '')) return;
      root.walkRules((rule) => {
        const kept = rule.selectors.filter((selector) => !UNUSED.some((part) => part.test(outsideNot(tight(selector)))));
        if (kept.length === 0) rule.remove();
        else if (kept.length < rule.selectors.length) rule.selectors = kept;
      });
      dropOverriddenProperties(root);
      root.walkAtRules((atRule) => {
        if (atRule.nodes?.length === 0) atRule.remove();
      });
      dropUnreadProperties(root, readByAdmin());
    },
  };
}
