import path from 'node:path';
import { Eta } from 'eta';
import type { Express } from 'express';

export const VIEWS_DIR = path.resolve('views');

/** Registers Eta as Express's view engine: res.render('catalog/index', data). */
export function useEta(app: Express, { cache }: { cache: boolean }): Eta {
  const eta = new Eta({ views: VIEWS_DIR, cache, autoTrim: false });
  app.engine('eta', (filePath, data, done) => {
    try {
      done(null, eta.render(path.relative(VIEWS_DIR, filePath), data));
    } catch (err) {
      done(err);
    }
  });
  app.set('view engine', 'eta');
  app.set('views', VIEWS_DIR);
  return eta;
}

/** JSON safe to place inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
