import { readFileSync } from 'node:fs';
import type { Plugin, Root } from 'postcss';
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
];

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
 * properties (the search and date icons, the table's colours).
 */
function readByAdmin(): string[] {
  return [
    ...readIn(compile('islands/pico/admin.scss', { loadPaths: ['node_modules'] }).css),
    ...readIn(readFileSync('islands/admin.css', 'utf8')),
  ];
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

/** For the shop's stylesheets (styles.css, admin.css), with Pico's parts imported into them. */
export function dropUnusedPico(): Plugin {
  return {
    postcssPlugin: 'drop-unused-pico',
    OnceExit(root) {
      if (!/islands\/(styles|admin)\.css$/.test(root.source?.input.file ?? '')) return;
      root.walkRules((rule) => {
        const kept = rule.selectors.filter((selector) => !UNUSED.some((part) => part.test(outsideNot(selector))));
        if (kept.length === 0) rule.remove();
        else if (kept.length < rule.selectors.length) rule.selectors = kept;
      });
      root.walkAtRules((atRule) => {
        if (atRule.nodes?.length === 0) atRule.remove();
      });
      dropUnreadProperties(root, readByAdmin());
    },
  };
}
