import { Eta } from 'eta';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CardForm } from '../../islands/card-form/CardForm.tsx';
import { VIEWS_DIR } from '../../src/web/views.ts';

// The checkout page draws the card form's first render until the island mounts, so that the
// page does not move when it does (layout shift). The two must stay alike: same elements,
// same classes, same words.

/** The elements in order, each with its classes, then the words: what decides the layout. */
function shape(html: string): { elements: string[]; text: string } {
  const elements = [...html.matchAll(/<([a-z]+)(?:[^>]*?\sclass(?:Name)?="([^"]*)")?[^>]*>/g)].map(
    ([, tag, classes]) => `${tag}${classes ? '.' + classes.split(/\s+/).join('.') : ''}`,
  );
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { elements, text };
}

function placeholder(mode: 'sandbox' | 'stripe'): string {
  const eta = new Eta({ views: VIEWS_DIR, autoTrim: false });
  return eta.render('checkout/_card-placeholder', { mode });
}

describe("the checkout page's card form placeholder", () => {
  for (const mode of ['sandbox', 'stripe'] as const) {
    it(`matches the island's first render (${mode})`, () => {
      const island = renderToStaticMarkup(
        <CardForm variant="guest" mode={mode} publishableKey={mode === 'stripe' ? 'pk_test_x' : null} customer={null} />,
      );
      expect(shape(placeholder(mode))).toEqual(shape(island));
    });
  }
});
